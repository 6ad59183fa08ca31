// Reads an MCP client's server configuration (the `mcpServers` JSON desktop and IDE clients use) into upstreams
// for mcp/servers.yaml, keeping apart the values needed to list their tools now: the upstreams name variables,
// never their values (docs/mcp.md, "Starting from what you have").
import { type Code, type HttpUpstream, isHttpUrl, SERVER_NAME, type StdioUpstream, type Upstream } from '@tollgate/engine';
import { childPointer, type Diagnostic } from '@tollgate/engine/source';

/** A server of the client's file, as the upstreams document will name it. */
export interface ClientServer {
  /** Its name in the client's file. */
  key: string;
  /** The JSON Pointer of its entry in the file. */
  path: string;
  upstream: Upstream;
  /** A server of the running upstreams document with the same definition: it is not added again. */
  existing: boolean;
  /** The values its variables hold in the client's file, to list its tools now; never written anywhere. */
  values: Record<string, string>;
}

/** A variable the gateway's environment must hold for an imported server. */
export interface Variable {
  name: string;
  server: string;
  /** Where the client's file had its value: `env` or `header NAME`. */
  from: string;
}

export interface ClientConfig {
  servers: ClientServer[];
  variables: Variable[];
  problems: Diagnostic[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const MAX_TEXT = 2000;
const MAX_LIST = 64;
const STDIO_MEMBERS = ['type', 'command', 'args', 'env', 'disabled'];
const HTTP_MEMBERS = ['type', 'url', 'headers', 'disabled'];
const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp'];
/** A value that is exactly `${NAME}` names a variable of the client's own environment. */
const WHOLE_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Reads the file's `mcpServers`. `running` are the servers of the running upstreams document: their names are
 * taken, unless a server of the file is defined exactly as one of them. `env` expands `${NAME}` in values.
 *
 * @example
 * readClientConfig({ mcpServers: { Files: { command: 'npx', env: { TOKEN: 's3cret' } } } }, [], {})
 * // servers: [{ key: 'Files', upstream: { name: 'files', transport: 'stdio', command: 'npx', args: [], env: ['TOKEN'] }, values: { TOKEN: 's3cret' }, ... }]
 */
export function readClientConfig(value: unknown, running: readonly Upstream[], env: NodeJS.ProcessEnv): ClientConfig {
  const problems: Diagnostic[] = [];
  const out: ClientConfig = { servers: [], variables: [], problems };
  const shape = clientConfigProblem(value);
  if (shape !== undefined || !isRecord(value) || !isRecord(value.mcpServers)) {
    if (shape !== undefined) problems.push(shape);
    return out;
  }
  const names = new Set(running.map((s) => s.name));
  const held = new Map<string, string>();
  for (const [key, entry] of Object.entries(value.mcpServers)) {
    const path = childPointer('/mcpServers', key);
    const read = readEntry(entry, path, problems);
    if (read === undefined) continue;
    const same = running.find((s) => sameUpstream(s, { ...read.upstream, name: s.name } as Upstream));
    const name = same?.name ?? freeName(key, names);
    if (same === undefined) names.add(name);
    if (name !== key) {
      const why = SERVER_NAME.test(key)
        ? 'mcp/servers.yaml has a server of that name already'
        : 'a server name is 1-64 lowercase letters, digits, _ and -';
      problems.push(issue('SERVER_RENAMED', path, `${key} is imported as ${name}: ${why}`, 'warning'));
    }
    const server: ClientServer = { key, path, upstream: { name, ...read.upstream } as Upstream, existing: same !== undefined, values: {} };
    for (const [variable, raw, from] of read.variables) {
      const text = raw.replace(REFERENCE, (_all, n: string) => env[n] ?? '');
      const header = from.slice('header '.length);
      // A server already running keeps the variables its headers are read from.
      const kept = same?.transport === 'http' ? same.headers[header] : undefined;
      let named = kept ?? variable ?? headerVariable(name, header);
      if (variable === undefined && kept === undefined) {
        // An invented name must not take another server's variable.
        for (let n = 2; held.has(named) && held.get(named) !== text; n++) named = `${headerVariable(name, header)}_${n}`;
      } else if (held.has(named) && held.get(named) !== text) {
        problems.push(
          issue('ENV_CONFLICT', path, `${named} is set to another value by an earlier server; the gateway has one ${named}`, 'warning'),
        );
      }
      if (from !== 'env') (server.upstream as HttpUpstream).headers[header] = named;
      held.set(named, text);
      server.values[named] = text;
      if (!out.variables.some((v) => v.name === named && v.server === name)) out.variables.push({ name: named, server: name, from });
    }
    out.servers.push(server);
  }
  return out;
}

/** NOT_CLIENT_CONFIG when the value is no client's configuration (checked before the data folder is opened). */
export function clientConfigProblem(value: unknown): Diagnostic | undefined {
  if (isRecord(value) && isRecord(value.mcpServers)) return undefined;
  return issue(
    'NOT_CLIENT_CONFIG',
    '',
    'expected {"mcpServers": {"name": {"command", "args", "env"} | {"type": "http", "url", "headers"}}}',
  );
}

/** An entry read: its upstream without a name, and its variables as [name (undefined: to invent), value, from]. */
interface Entry {
  upstream: Omit<StdioUpstream, 'name'> | Omit<HttpUpstream, 'name'>;
  variables: [string | undefined, string, string][];
}

function readEntry(entry: unknown, path: string, problems: Diagnostic[]): Entry | undefined {
  if (!isRecord(entry))
    return refuse(problems, path, 'a server entry is an object: {"command", "args", "env"} or {"type": "http", "url", "headers"}');
  if (entry.disabled === true) {
    problems.push(issue('SERVER_DISABLED', path, 'the client has this server disabled; it is not imported', 'warning'));
    return undefined;
  }
  const type = entry.type;
  if (type !== undefined && typeof type !== 'string') return refuse(problems, `${path}/type`, 'type is a string such as "stdio" or "http"');
  const stdio = type === 'stdio' || (type === undefined && entry.command !== undefined);
  const http =
    (type !== undefined && HTTP_TYPES.includes(type)) || (type === undefined && entry.command === undefined && entry.url !== undefined);
  if (!stdio && !http) {
    if (type === undefined) return refuse(problems, path, 'a server entry needs a command (stdio) or a url (Streamable HTTP)');
    problems.push(
      issue(
        'UNSUPPORTED_TRANSPORT',
        `${path}/type`,
        `the gateway speaks stdio and Streamable HTTP, not ${type}; the server is not imported`,
        'warning',
      ),
    );
    return undefined;
  }
  for (const member of Object.keys(entry)) {
    if (!(stdio ? STDIO_MEMBERS : HTTP_MEMBERS).includes(member)) {
      problems.push(
        issue('UNSUPPORTED_MEMBER', childPointer(path, member), `mcp/servers.yaml cannot say ${member}; it is ignored`, 'warning'),
      );
    }
  }
  return stdio ? readStdio(entry, path, problems) : readHttp(entry, path, problems);
}

function readStdio(entry: Record<string, unknown>, path: string, problems: Diagnostic[]): Entry | undefined {
  const { command, args = [], env = {} } = entry;
  if (!isText(command)) return refuse(problems, `${path}/command`, `command is the program to start: text of 1 to ${MAX_TEXT} characters`);
  if (!Array.isArray(args) || args.length > MAX_LIST || !args.every((a) => typeof a === 'string' && a.length <= MAX_TEXT)) {
    return refuse(problems, `${path}/args`, `args is a list of at most ${MAX_LIST} strings`);
  }
  if (!isRecord(env) || Object.keys(env).length > MAX_LIST)
    return refuse(problems, `${path}/env`, 'env is an object of variables and their values');
  const variables: Entry['variables'] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name) || typeof value !== 'string') {
      return refuse(
        problems,
        childPointer(`${path}/env`, name),
        'an env member is a variable name (letters, digits and _) with a string value',
      );
    }
    variables.push([name, value, 'env']);
  }
  return { upstream: { transport: 'stdio', command, args: args as string[], env: Object.keys(env) }, variables };
}

function readHttp(entry: Record<string, unknown>, path: string, problems: Diagnostic[]): Entry | undefined {
  const { url, headers = {} } = entry;
  if (!(isText(url) && isHttpUrl(url))) {
    return refuse(problems, `${path}/url`, 'url is an http or https URL without a user or password in it');
  }
  if (!isRecord(headers) || Object.keys(headers).length > MAX_LIST)
    return refuse(problems, `${path}/headers`, 'headers is an object of header names and values');
  const variables: Entry['variables'] = [];
  const named: Record<string, string> = {};
  for (const [header, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(header) || typeof value !== 'string') {
      return refuse(
        problems,
        childPointer(`${path}/headers`, header),
        'a header is an HTTP token, such as Authorization, with a string value',
      );
    }
    // A header that is exactly ${NAME} is read from NAME; any other value gets a variable of its own, named
    // once the server's name is known (readClientConfig).
    const whole = WHOLE_REFERENCE.exec(value);
    named[header] = whole ? (whole[1] as string) : '';
    variables.push([whole ? (whole[1] as string) : undefined, value, `header ${header}`]);
  }
  return { upstream: { transport: 'http', url, headers: named }, variables };
}

/** `<SERVER>_<HEADER>` in upper snake case, a variable's name. */
function headerVariable(server: string, header: string): string {
  const name = `${server}_${header}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return /^[A-Z_]/.test(name) ? name : `MCP_${name}`;
}

/** A name the upstreams reader accepts and no other server has: lowercased, other characters as -, numbered when taken. */
function freeName(key: string, taken: ReadonlySet<string>): string {
  const base =
    key
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[-_]+/, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'server';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

function sameUpstream(a: Upstream, b: Upstream): boolean {
  if (a.transport === 'stdio' && b.transport === 'stdio') {
    return a.command === b.command && same(a.args, b.args) && same([...a.env].sort(), [...b.env].sort());
  }
  if (a.transport === 'http' && b.transport === 'http')
    return a.url === b.url && same(Object.keys(a.headers).sort(), Object.keys(b.headers).sort());
  return false;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_TEXT;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(problems: Diagnostic[], path: string, message: string): undefined {
  problems.push(issue('INVALID_SERVER_ENTRY', path, `${message}; the server is not imported`));
  return undefined;
}

function issue(code: Code, path: string, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic {
  return { code, severity, path, message };
}
