// serve's options for what browsers are told (docs/security.md, "Headers and cross-origin requests"): the origins
// whose pages may call the API, and whether a proxy's X-Forwarded-Proto says a request came over TLS.
import { readOrigin } from '../server/origin.ts';
import { CliError } from './io.ts';

/**
 * --cors-origin ORIGIN (repeatable), else TOLLGATE_CORS_ORIGINS (comma-separated; empty is none): each exactly
 * `scheme://host[:port]`, else USAGE. None unless given.
 */
export function corsOriginsOf(flags: readonly string[] | undefined, env: Record<string, string | undefined> = process.env): string[] {
  if (flags !== undefined && flags.length > 0) return flags.map((text) => originOf(text, '--cors-origin'));
  const text = env.TOLLGATE_CORS_ORIGINS;
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((part) => originOf(part.trim(), 'TOLLGATE_CORS_ORIGINS'));
}

function originOf(text: string, where: string): string {
  const origin = readOrigin(text);
  if (!origin.ok) throw new CliError('USAGE', `${where}: ${origin.reason}`);
  return origin.origin;
}

/** --trust-forwarded-proto, else TOLLGATE_TRUST_FORWARDED_PROTO (1 on, 0 or empty off). */
export function trustForwardedProtoOf(flag: boolean | undefined, env: Record<string, string | undefined> = process.env): boolean {
  if (flag === true) return true;
  const text = env.TOLLGATE_TRUST_FORWARDED_PROTO;
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new CliError('USAGE', `TOLLGATE_TRUST_FORWARDED_PROTO is 1 or 0, got ${text}`);
}

/**
 * --rp-id NAME, else TOLLGATE_RP_ID: the relying party id passkeys are bound to (docs/approver-keys.md), a host
 * name (WebAuthn refuses IP addresses). Undefined: the host name the console was opened at.
 */
export function rpIdOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ok = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(text);
  if (!ok || /^[0-9.]+$/.test(text))
    throw new CliError('USAGE', `--rp-id: ${text} is not a host name (lower case, no port, not an IP address)`);
  return text;
}
