// Server-sent events over fetch, parsed by hand: EventSource cannot send an Authorization header.
import { bearer } from './api/client.ts';

export interface StreamEvent {
  event: string;
  data: string;
}

/** Parses one SSE block (the text between blank lines); comments and empty blocks give null. */
export function parseEventBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}

/** Splits buffered text into complete blocks and the unfinished rest. Example: `splitBlocks('a\n\nb')` is `{blocks:['a'], rest:'b'}`. */
export function splitBlocks(buffer: string): { blocks: string[]; rest: string } {
  const parts = buffer.split(/\r?\n\r?\n/);
  const rest = parts.pop() ?? '';
  return { blocks: parts, rest };
}

/**
 * Reads `path` as an event stream until `signal` aborts or the stream ends; calls `onOpen` once connected and
 * `onBeat` for every block that arrives, comments (the server's heartbeat) included.
 */
export async function readEventStream(
  path: string,
  key: string,
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
  onOpen?: () => void,
  onBeat?: () => void,
): Promise<void> {
  const response = await fetch(path, { headers: { accept: 'text/event-stream', ...bearer(key) }, signal });
  if (!response.ok || response.body === null) throw new Error(`the event stream answered ${response.status}`);
  onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { blocks, rest } = splitBlocks(buffer + value);
    buffer = rest;
    for (const block of blocks) {
      onBeat?.();
      const event = parseEventBlock(block);
      if (event) onEvent(event);
    }
  }
}
