// The tollgate CLI's options and the helpers commands read them with. Kept apart from main.ts, which
// loads the commands, so no command imports the module that imports it.
import { parseArgs } from 'node:util';
import { CliError } from './io.ts';

const OPTIONS = {
  json: { type: 'boolean' },
  members: { type: 'string' },
  tools: { type: 'string' },
  // policy map|diff (commands/policy-map.ts): how many seconds the analysis may take.
  'time-limit': { type: 'string' },
  tool: { type: 'string' },
  args: { type: 'string' },
  examples: { type: 'string' },
  param: { type: 'string', multiple: true },
  out: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'examples-out': { type: 'string' },
  force: { type: 'boolean' },
  catalogue: { type: 'string' },
  'out-dir': { type: 'string' },
  server: { type: 'string' },
  // approvals key create|approve|deny (commands/approvals.ts): the device key file, its label, a decision's reason.
  key: { type: 'string' },
  label: { type: 'string' },
  reason: { type: 'string' },
  call: { type: 'string' },
  // trial start|show (commands/trial.ts): the share of calls sampled, the trial's bounds, every differing call.
  'sample-rate': { type: 'string' },
  'ends-at': { type: 'string' },
  'max-samples': { type: 'string' },
  differences: { type: 'boolean' },
  data: { type: 'string' },
  database: { type: 'string' },
  demo: { type: 'boolean' },
  member: { type: 'string' },
  role: { type: 'string' },
  agent: { type: 'string' },
  grant: { type: 'string', multiple: true },
  // webhooks add (commands/webhooks.ts): the events, the body's format, whether the arguments go too, and the
  // agents, tools and policy documents a subscription is told of.
  event: { type: 'string', multiple: true },
  'for-agent': { type: 'string', multiple: true },
  'for-tool': { type: 'string', multiple: true },
  'for-policy': { type: 'string', multiple: true },
  format: { type: 'string' },
  'include-arguments': { type: 'boolean' },
  name: { type: 'string' },
  'expires-in': { type: 'string' },
  overlap: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  version: { type: 'string' },
  'approval-wait': { type: 'string' },
  'upstream-timeout': { type: 'string' },
  'mcp-approval-wait': { type: 'string' },
  'mcp-upstream-timeout': { type: 'string' },
  'language-revision': { type: 'string' },
  'drain-timeout': { type: 'string' },
  'drain-delay': { type: 'string' },
  'metrics-loopback': { type: 'boolean' },
  // Where webhooks may go besides public https (server/webhooks/outbound-url.ts, docs/webhooks.md).
  'webhooks-allow-http': { type: 'boolean' },
  'webhooks-allow-private': { type: 'boolean' },
  'otlp-endpoint': { type: 'string' },
  // The record as JSON lines for a SIEM (cli/audit-log.ts).
  'audit-log': { type: 'string' },
  // The secret sealing members' custodial keys (server/member-key-secret.ts) and the passkeys' relying party id.
  'member-key-secret-file': { type: 'string' },
  // member-key-secret rotate (commands/member-key-secret.ts): the file holding the secret to seal with from now on.
  'new-secret-file': { type: 'string' },
  'rp-id': { type: 'string' },
  // OpenID Connect issuers whose tokens are bearers beside keys (cli/identity-file.ts).
  identity: { type: 'string' },
  // Cross-origin callers and the proxy's word on TLS (cli/web-security-options.ts).
  'cors-origin': { type: 'string', multiple: true },
  'trust-forwarded-proto': { type: 'boolean' },
  // The PostgreSQL pool's bounds (server/postgres/pool-bounds.ts, POOL_BOUND_FLAGS).
  'pg-max': { type: 'string' },
  'pg-connect-timeout-ms': { type: 'string' },
  'pg-statement-timeout-ms': { type: 'string' },
  'pg-lock-timeout-ms': { type: 'string' },
  'pg-idle-in-transaction-ms': { type: 'string' },
  'pg-query-timeout-ms': { type: 'string' },
  // init (commands/init.ts): the answers a terminal would be asked, the client file to draft from, where keys go.
  owner: { type: 'string' },
  template: { type: 'string' },
  'from-mcp': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'key-out': { type: 'string' },
  'agent-key-out': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type ParsedOptions = ReturnType<typeof parseCommandLine>['values'];

export function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/** Exactly one positional argument. */
export function one(rest: string[], name: string): string {
  if (rest.length !== 1) throw new CliError('USAGE', `expected one ${name}, got ${rest.length === 0 ? 'none' : rest.join(' ')}`);
  return rest[0] as string;
}

/** --language-revision N: the highest policy language revision the node decides (1-4; 4 unless given). */
export function languageRevisionOf(text: string | undefined): 1 | 2 | 3 | 4 {
  if (text === undefined) return 4;
  if (text === '1' || text === '2' || text === '3' || text === '4') return Number(text) as 1 | 2 | 3 | 4;
  throw new CliError('USAGE', `--language-revision is 1, 2, 3 or 4, got ${text}`);
}

/** A required option. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new CliError('USAGE', `missing --${flag}`);
  return value;
}

/** How long a held MCP call waits for a person, and an upstream may take, unless given (docs/mcp.md). */
export const DEFAULT_APPROVAL_WAIT_SECONDS = 600;
export const DEFAULT_UPSTREAM_TIMEOUT_SECONDS = 30;

/** A whole number of seconds from 1 given as --`flag`, or `fallback` when it is not given. */
export function secondsOption(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^[0-9]{1,7}$/.test(text) || value < 1) throw new CliError('USAGE', `--${flag} is a whole number of seconds from 1, got ${text}`);
  return value;
}

/** --metrics-loopback, else TOLLGATE_METRICS_LOOPBACK (1 on, 0 or empty off): keyless /metrics from a loopback peer. */
export function metricsLoopbackOf(flag: boolean | undefined, env: Record<string, string | undefined> = process.env): boolean {
  if (flag === true) return true;
  const text = env.TOLLGATE_METRICS_LOOPBACK;
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new CliError('USAGE', `TOLLGATE_METRICS_LOOPBACK is 1 or 0, got ${text}`);
}

/** A switch given as --`flag`, else as the environment's `name` (1 on, 0 or empty off). */
function switchOf(flag: boolean | undefined, name: string, env: Record<string, string | undefined>): boolean {
  if (flag === true) return true;
  const text = env[name];
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new CliError('USAGE', `${name} is 1 or 0, got ${text}`);
}

/**
 * Where webhooks may go besides public https (docs/webhooks.md): --webhooks-allow-http, else
 * TOLLGATE_WEBHOOKS_ALLOW_HTTP; --webhooks-allow-private, else TOLLGATE_WEBHOOKS_ALLOW_PRIVATE.
 */
export function webhooksOutboundOf(
  options: { 'webhooks-allow-http'?: boolean | undefined; 'webhooks-allow-private'?: boolean | undefined },
  env: Record<string, string | undefined> = process.env,
): { allowHttp: boolean; allowPrivate: boolean } {
  return {
    allowHttp: switchOf(options['webhooks-allow-http'], 'TOLLGATE_WEBHOOKS_ALLOW_HTTP', env),
    allowPrivate: switchOf(options['webhooks-allow-private'], 'TOLLGATE_WEBHOOKS_ALLOW_PRIVATE', env),
  };
}

/** The PostgreSQL database a node runs on: --database, else TOLLGATE_DATABASE_URL; undefined for the data folder's SQLite. */
/** A variable as an option reads it: unset and empty are the same (a shell's `X= cmd` sets nothing). */
function variable(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  return value === '' ? undefined : value;
}

/**
 * Where `serve` listens: `--host` (or TOLLGATE_HOST; 127.0.0.1) and `--port` (or TOLLGATE_PORT; 8787), the flags
 * winning. A port is written as digits only, 0 to 65535: `8787.0` or `1e3` are not ports (docs/cli.md).
 */
export function listenAddressOf(
  options: ParsedOptions,
  env: Record<string, string | undefined> = process.env,
): { host: string; port: number } {
  const host = options.host ?? variable(env, 'TOLLGATE_HOST') ?? '127.0.0.1';
  const text = options.port ?? variable(env, 'TOLLGATE_PORT') ?? '8787';
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new CliError('USAGE', `the port (--port or TOLLGATE_PORT) is a whole number 0-65535, not ${JSON.stringify(text)}`);
  }
  return { host, port };
}

/** The data folder `serve` uses: `--data`, or TOLLGATE_DATA (the flag winning). */
export function dataFolderOf(options: ParsedOptions, env: Record<string, string | undefined> = process.env): string | undefined {
  return options.data ?? variable(env, 'TOLLGATE_DATA');
}

export function databaseOf(options: ParsedOptions, env: Record<string, string | undefined> = process.env): string | undefined {
  const url = options.database ?? (env.TOLLGATE_DATABASE_URL === '' ? undefined : env.TOLLGATE_DATABASE_URL);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new CliError('USAGE', 'the database is a postgres:// URL (--database or TOLLGATE_DATABASE_URL)');
  return url;
}
