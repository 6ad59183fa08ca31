// A client of GET /v1/events for tests: opens the stream over a real socket and reads it until a condition
// holds; eventsOf parses what arrived into {event, data}.

/** Opens the stream and reads it until `until` holds of what has arrived (or `ms` pass). */
export async function openEvents(url: string, key: string) {
  const controller = new AbortController();
  const res = await fetch(`${url}/v1/events`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let received = '';
  async function readUntil(until: (text: string) => boolean, ms = 5000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!until(received)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(received)}`);
      const chunk = await reader.read();
      if (chunk.done) break;
      received += decoder.decode(chunk.value, { stream: true });
    }
    return received;
  }
  return {
    res,
    readUntil,
    close() {
      controller.abort();
    },
  };
}

/** The events of a stream's text: [{event, data}]. */
export function eventsOf(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const lines = block.split('\n');
      const event =
        lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message';
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      return { event, data: JSON.parse(data) };
    });
}
