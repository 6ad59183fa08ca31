// HTTP/1.1 answers read off a raw socket, one after another, each by its Content-Length: for tests that write their
// requests byte for byte (several on one keep-alive connection, or many connections in one turn).
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * A reader of the answers on `socket`, in order: each call gives the next (rejected if the socket closes first).
 *
 * @example
 * const next = answersOn(socket);
 * socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
 * const { status, body } = await next();
 */
export function answersOn(socket: Socket): () => Promise<RawAnswer> {
  let received = Buffer.alloc(0);
  const ready: RawAnswer[] = [];
  const waiting: { resolve(answer: RawAnswer): void; reject(error: Error): void }[] = [];
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    for (;;) {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *([0-9]+)/i.exec(head)?.[1]);
      if (received.length < end + 4 + length) return;
      const answer = { status: Number(head.split(' ')[1]), body: received.subarray(end + 4, end + 4 + length).toString('utf8') };
      received = received.subarray(end + 4 + length);
      const taker = waiting.shift();
      if (taker) taker.resolve(answer);
      else ready.push(answer);
    }
  });
  socket.once('close', () => {
    for (const taker of waiting.splice(0)) taker.reject(new Error('closed before its answer'));
  });
  return () => {
    const answer = ready.shift();
    if (answer) return Promise.resolve(answer);
    if (socket.destroyed) return Promise.reject(new Error('closed before its answer'));
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}

/** A connection to `host`:`port`, once open. */
export function openSocket(port: number, host: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => resolve(socket));
    socket.once('error', reject);
  });
}
