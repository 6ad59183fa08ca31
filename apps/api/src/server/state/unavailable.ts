// What "the database does not answer" looks like from the pg driver (docs/deploy.md, "When the database is
// unreachable"): a socket that cannot connect or was cut, a pool that could not get a connection in time, or a
// server refusing connections (shutting down, starting, out of slots). Such a request is answered 503
// DATABASE_UNAVAILABLE: a call is never decided without the shared state, so it is never allowed.

/**
 * SQLSTATE classes and codes of a server that cannot serve: 08 connection exception, 57P0x shutdown, 53300 too many,
 * and a bound reached (postgres/pool-bounds.ts): 57014 statement_timeout, 55P03 lock_timeout.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-4]|53300|57014|55P03)$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** The driver's own words for a connection that ended or never came (it gives them no code). */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection ended|Cannot use a pool after calling end/;

/** Whether the error says the database cannot be reached, rather than that a statement failed. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_ERRNO.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (UNAVAILABLE_MESSAGES.test(err.message)) return true;
  // An AggregateError of every address tried (localhost: ::1 and 127.0.0.1).
  const errors = (err as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}
