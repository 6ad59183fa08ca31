// The direct lane's answers written at the turn's end (gate/turn-end-answers.ts), on a real node:http server whose
// handler answers every request at once through it: a burst of requests on many keep-alive connections, written in
// one turn of the client, is answered each on its own connection, and never more than MOST_WAITING answers wait.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAtTurnEnd, MOST_WAITING } from '../src/server/gate/turn-end-answers.ts';
import { answersOn, openSocket } from './raw-http-answers.ts';

const HEADERS = ['content-type', 'text/plain'];
/** Answers queued and not yet written, as the handler saw them; and the most it ever saw at once. */
const queued: ServerResponse[] = [];
let mostWaiting = 0;

const server = createServer((req, res) => {
  queued.push(res);
  answerAtTurnEnd(res, HEADERS, req.url ?? '');
  for (let i = queued.length - 1; i >= 0; i--) if ((queued[i] as ServerResponse).headersSent) queued.splice(i, 1);
  mostWaiting = Math.max(mostWaiting, queued.length);
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A connection to the server and a reader of its answers' bodies, in order. */
async function connection(): Promise<{ socket: Socket; next(): Promise<string> }> {
  const socket = await openSocket(port, '127.0.0.1');
  const answer = answersOn(socket);
  return { socket, next: async () => (await answer()).body };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

describe("answers at the turn's end", () => {
  it('answers a burst each on its own connection, never holding more than MOST_WAITING', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 48 }), fc.string({ maxLength: 6 }), async (count, tag) => {
        const connections = await Promise.all(Array.from({ length: count }, connection));
        // One request each first, so the server holds every connection before the burst.
        for (const [i, c] of connections.entries()) c.socket.write(get(`/warm/${i}`));
        for (const [i, c] of connections.entries()) expect(await c.next()).toBe(`/warm/${i}`);
        const path = (i: number) => `/${encodeURIComponent(tag)}/${i}`;
        for (const [i, c] of connections.entries()) c.socket.write(get(path(i)));
        const answers = await Promise.all(connections.map((c) => c.next()));
        for (const c of connections) c.socket.destroy();
        expect(answers).toEqual(connections.map((_, i) => path(i)));
      }),
      { numRuns: 12 },
    );
    expect(mostWaiting).toBeLessThan(MOST_WAITING);
    // The case this is for came up: many answers of one turn waiting together.
    expect(mostWaiting).toBeGreaterThanOrEqual(MOST_WAITING / 2);
  });

  it('answers requests pipelined on one connection in the order they came', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 24 }), async (count) => {
        const c = await connection();
        c.socket.write(Array.from({ length: count }, (_, i) => get(`/pipelined/${i}`)).join(''));
        const answers: string[] = [];
        for (let i = 0; i < count; i++) answers.push(await c.next());
        c.socket.destroy();
        expect(answers).toEqual(Array.from({ length: count }, (_, i) => `/pipelined/${i}`));
      }),
      { numRuns: 10 },
    );
  });
});
