// readEventStream over real HTTP on loopback: every block that arrives, heartbeat comments included, is a
// beat; only events reach onEvent; the promise settles when the server ends the stream.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readEventStream, type StreamEvent } from './event-stream.ts';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** Serves `chunks` as an event stream, written one after another, then ends it. */
async function serveStream(chunks: string[]): Promise<string> {
  server = createServer(async (request, response) => {
    expect(request.headers.authorization).toBe('Bearer k1');
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) {
      response.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    response.end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/events`;
}

describe('readEventStream', () => {
  it('beats on comments and events alike, hands on only events, and ends with the stream', async () => {
    const url = await serveStream([': connected\n\n', ': heart', 'beat\n\n', 'event: approval\ndata: {"id":"a"}\n\n', ': heartbeat\n\n']);
    const seen: string[] = [];
    const events: StreamEvent[] = [];
    await readEventStream(
      url,
      'k1',
      (event) => {
        seen.push('event');
        events.push(event);
      },
      new AbortController().signal,
      () => seen.push('open'),
      () => seen.push('beat'),
    );
    expect(seen).toEqual(['open', 'beat', 'beat', 'beat', 'event', 'beat']);
    expect(events).toEqual([{ event: 'approval', data: '{"id":"a"}' }]);
  });
});
