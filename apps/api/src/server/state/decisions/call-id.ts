// Call ids: UUIDs of version 7 (RFC 9562), a millisecond timestamp then random bits. Time-ordered ids land at the end
// of the decision log's primary-key index, where random (version 4) ids touch a random page of it per insert: with a
// large log that halves the cost of writing a decision (docs/performance.md, "The decision log at scale").
import { randomFillSync } from 'node:crypto';

const bytes = Buffer.alloc(16);
// Random bytes drawn in bulk: one randomFillSync per call costs more than the rest of the id.
const pool = Buffer.alloc(10 * 512);
let used = pool.length;

/**
 * A new call id, unique and ordered by creation time to the millisecond.
 *
 * @example
 * newCallId(); // '019ad5f1-3c2e-7a41-9f0b-6d2e8c1a4b7f'
 */
export function newCallId(now = Date.now()): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  pool.copy(bytes, 6, used, used + 10);
  used += 10;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
