// Which requests' bodies failed to read as JSON. Hono's JSON validator answers such a body with an HTTPException
// in its own words, dropping the reader's error, so the one onError (errors.ts) knows it by this mark, set where
// the body is read (exact-body.ts), never by the words of a message.
import type { Context } from 'hono';

const notJson = new WeakSet<Request>();

/** Marks the request when a read of its body as JSON fails; the failure itself passes on unchanged. */
export function watchJsonReads(c: Context): void {
  const read = c.req.json.bind(c.req);
  const watched = () =>
    read().catch((err: unknown) => {
      notJson.add(c.req.raw);
      throw err;
    });
  Object.defineProperty(c.req, 'json', { value: watched, configurable: true });
}

/** Whether a read of the request's body as JSON failed. */
export function jsonReadFailed(c: Context): boolean {
  return notJson.has(c.req.raw);
}
