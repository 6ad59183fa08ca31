// Answers a route writes whole, headers and all. The middlewares that add the same headers to every answer
// (security-headers.ts, api-headers.ts) offer them before the route runs, and leave an answer prepared with them
// alone; every other answer they change as before. Headers set on an answer after it is made turn
// @hono/node-server's plain header record into a web Headers object, about as costly as the gate's decision
// (docs/performance.md, "API gate"), so the gate answers from a record prepared once per set of headers: the same
// headers with the same values, the names in lowercase and in the order a Headers object gives them (sorted); only
// Content-Length comes later among them, as Node's own.
import type { Context } from 'hono';

/** Header names (lowercase) to values. */
export type HeaderRecord = Readonly<Record<string, string>>;

const OFFERED = 'tollgate.answerHeaders';
const JSON_TYPE: HeaderRecord = Object.freeze({ 'content-type': 'application/json' });

/** Answers made by preparedJsonAnswer: they carry every header offered for their request. */
const prepared = new WeakSet<Response>();
/** Each record with each addition, made once (a handful of records in all: one per middleware's choice). */
const merged = new WeakMap<HeaderRecord, WeakMap<HeaderRecord, HeaderRecord>>();

function merge(base: HeaderRecord, added: HeaderRecord): HeaderRecord {
  let byAdded = merged.get(base);
  if (!byAdded) {
    byAdded = new WeakMap();
    merged.set(base, byAdded);
  }
  let out = byAdded.get(added);
  if (!out) {
    const all: Record<string, string> = { ...base, ...added };
    out = Object.freeze(
      Object.fromEntries(
        Object.keys(all)
          .sort()
          .map((k) => [k, all[k] as string]),
      ),
    );
    byAdded.set(added, out);
  }
  return out;
}

const NONE: HeaderRecord = Object.freeze({});

/**
 * Offers `headers` (lowercase names, a record made once) for this request's answer: a route may then answer
 * with preparedJsonAnswer, and the offering middleware leaves such an answer alone (isPreparedAnswer).
 *
 * @example
 * offerAnswerHeaders(c, { 'cache-control': 'no-store' });
 */
export function offerAnswerHeaders(c: Context, headers: HeaderRecord): void {
  const current = c.get(OFFERED) as HeaderRecord | null | undefined;
  if (current === null) return;
  c.set(OFFERED, merge(current ?? NONE, headers));
}

/** This request's answers are never prepared: a middleware that words headers per request (CORS) says so. */
export function refusePreparedAnswers(c: Context): void {
  c.set(OFFERED, null);
}

/** Whether `res` was prepared with every header offered for its request: the offering middlewares skip it. */
export function isPreparedAnswer(res: Response): boolean {
  return prepared.has(res);
}

/**
 * A 200 answer of JSON text with every header offered for the request, or undefined when none were offered (or
 * prepared answers were refused): the route then answers as any other, through `c.json`.
 *
 * @example
 * return preparedJsonAnswer(c, JSON.stringify(answer)) ?? c.json(answer, 200);
 */
export function preparedJsonAnswer(c: Context, text: string): Response | undefined {
  const offered = c.get(OFFERED) as HeaderRecord | null | undefined;
  if (!offered) return undefined;
  const res = new Response(text, { status: 200, headers: merge(offered, JSON_TYPE) });
  prepared.add(res);
  return res;
}

/**
 * The headers preparedJsonAnswer gives an answer whose request was offered `offered`, in the middlewares' order:
 * the same record, for an answer written without a Context (the gate's direct lane, gate/direct-lane.ts).
 *
 * @example
 * preparedJsonHeaders(securityHeaderRecords().plain, NO_STORE)['cache-control'] // 'no-store'
 */
export function preparedJsonHeaders(...offered: HeaderRecord[]): HeaderRecord {
  return merge(
    offered.reduce((all, headers) => merge(all, headers), NONE),
    JSON_TYPE,
  );
}
