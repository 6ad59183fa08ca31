// The CLI as a client of a running `tollgate serve` (the `approvals` and `trial` commands; docs/cli.md, "tollgate
// approvals key create", says how they find it): where the server is, the member's key from the environment (never
// argv, which `ps` shows), and one bounded request at a time whose refusal passes on the server's code.
import { readJsonText } from '@tollgate/engine/source';
import { CliError, EXIT_UNREADABLE } from './io.ts';
import { listenAddressOf, type ParsedOptions } from './options.ts';

/** How long one request may take, connecting included, before the command gives up (UNREACHABLE). */
export const SERVER_WAIT_MS = 10_000;
/** The server could not be reached, or did not answer within SERVER_WAIT_MS. */
export const EXIT_UNREACHABLE = 3;
/** The server answered with a refusal (its code is passed on) or with something that is not its API. */
export const EXIT_REFUSED = 4;

/** `--server URL`, else TOLLGATE_SERVER, else where `serve` listens by default (options.ts, listenAddressOf). */
export function serverUrlOf(options: ParsedOptions, env: Record<string, string | undefined> = process.env): URL {
  const { host, port } = listenAddressOf({}, {});
  const text = options.server ?? (env.TOLLGATE_SERVER || undefined) ?? `http://${host}:${port}`;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // said below
  }
  throw new CliError('USAGE', `the server (--server or TOLLGATE_SERVER) is an http:// or https:// URL, not ${JSON.stringify(text)}`);
}

/** The member's API key: TOLLGATE_API_KEY, never a flag. */
export function apiKeyOf(env: Record<string, string | undefined> = process.env): string {
  const key = env.TOLLGATE_API_KEY;
  if (key === undefined || key === '') {
    throw new CliError(
      'API_KEY_MISSING',
      'API_KEY_MISSING: set TOLLGATE_API_KEY to your member key (tollgate keys create, or the console); it is never a flag',
      EXIT_UNREADABLE,
    );
  }
  return key;
}

export interface ServerClient {
  readonly url: URL;
  get<T>(path: string): Promise<T>;
  /** GET where the server may answer 204 No Content (nothing there, not a fault): undefined then. */
  getIfAny<T>(path: string): Promise<T | undefined>;
  post<T>(path: string, body: unknown): Promise<T>;
}

/** A client of the server at `url` with the member's `key`. */
export function serverClient(url: URL, key: string): ServerClient {
  const request = async <T>(method: string, path: string, body?: unknown, noContent = false): Promise<T> => {
    const target = new URL(path.replace(/^\//, ''), url.href.endsWith('/') ? url : `${url.href}/`);
    let response: Response;
    let text: string;
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      // The one bound covers the answer's body too: a server that sends headers and then stalls is no better.
      const signal = AbortSignal.timeout(SERVER_WAIT_MS);
      response = await fetch(target, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
      text = await response.text();
    } catch (err) {
      throw new CliError(
        'UNREACHABLE',
        `UNREACHABLE: the server at ${url.origin} cannot be reached: ${whyUnreachable(err)}`,
        EXIT_UNREACHABLE,
      );
    }
    if (noContent && response.status === 204 && text === '') return undefined as T;
    const answer = parseJson(text);
    if (response.ok && answer !== undefined) return answer as T;
    const error = (answer as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (!response.ok && typeof error?.code === 'string') {
      const message = typeof error.message === 'string' ? error.message : '';
      throw new CliError({ code: error.code }, `${error.code}: ${message} (the server answered ${response.status})`, EXIT_REFUSED);
    }
    throw new CliError(
      'SERVICE_ERROR',
      `SERVICE_ERROR: the server at ${url.origin} answered ${method} ${target.pathname} with ${response.status}, not Tollgate's API`,
      EXIT_REFUSED,
    );
  };
  return {
    url,
    get: (path) => request('GET', path),
    getIfAny: (path) => request('GET', path, undefined, true),
    post: (path, body) => request('POST', path, body),
  };
}

/**
 * The server's answer read by the exact reader: undefined for one that is not JSON, or names a member twice. A number
 * it keeps as written (INEXACT_NUMBER: a rate of 0.5, an argument of 1.50) is no fault here: it stays a JsonNumber,
 * which the CLI prints as written (json-out.ts).
 */
function parseJson(text: string): unknown {
  const read = readJsonText(text);
  return read.ok && read.diagnostics.every((d) => d.code === 'INEXACT_NUMBER') ? read.value : undefined;
}

/** Why fetch failed, in a word: the system's code (ECONNREFUSED, ENOTFOUND) or the bound passing. */
function whyUnreachable(err: unknown): string {
  if ((err as Error).name === 'TimeoutError') return `no answer within ${SERVER_WAIT_MS / 1000} s`;
  const cause = (err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (err as Error).message;
}
