// The upstreams document (mcp/servers.yaml): the MCP servers the gateway forwards allowed calls to, each
// by name, over stdio or Streamable HTTP. Secrets are never written here: the document names environment
// variables, and the gateway reads their values when it connects (docs/documents.md, "Upstreams").
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { childPointer } from '../source/json-pointer.ts';
import { placeProblems } from '../source/place-problems.ts';
import { readYamlText } from '../source/yaml-text.ts';
import { checkMembers, isRecord, readList } from './values.ts';

/** An upstream reached by starting a process and speaking MCP over its stdin and stdout. */
export interface StdioUpstream {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  /** Names of environment variables passed to the process, with the gateway's values. */
  env: string[];
}

/** An upstream reached over Streamable HTTP. */
export interface HttpUpstream {
  name: string;
  transport: 'http';
  url: string;
  /** Header name -> the environment variable holding its value. */
  headers: Record<string, string>;
}

export type Upstream = StdioUpstream | HttpUpstream;

export interface Upstreams {
  servers: Upstream[];
}

export type UpstreamsResult = { ok: true; upstreams: Upstreams; problems: [] } | { ok: false; problems: Diagnostic[] };

export const UPSTREAMS_ID = 'mcp/servers.yaml';
export const MAX_SERVERS = 64;
export const MAX_ARGS = 64;
export const MAX_ENV = 64;
export const MAX_UPSTREAM_TEXT = 2000;
/** A server's name, as a catalogue tool's `upstream.server` names it. */
export const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const MEMBERS = ['servers'];
const SERVER_MEMBERS = ['name', 'stdio', 'http'];
const STDIO_MEMBERS = ['command', 'args', 'env'];
const HTTP_MEMBERS = ['url', 'headers'];

/**
 * Reads the upstreams document from its YAML text; every problem with its path and line.
 *
 * @example
 * readUpstreams('servers:\n  - name: files\n    stdio: {command: node, args: [files.js], env: [FILES_TOKEN]}\n')
 * // { ok: true, upstreams: { servers: [{ name: 'files', transport: 'stdio', command: 'node', args: ['files.js'], env: ['FILES_TOKEN'] }] }, problems: [] }
 */
export function readUpstreams(text: string): UpstreamsResult {
  const read = readYamlText(text);
  if (!read.ok) return { ok: false, problems: [{ ...read.diagnostic, path: '' }] };
  const problems = [...read.diagnostics];
  const upstreams = validateUpstreams(read.value, problems);
  if (upstreams !== undefined && problems.length === 0) return { ok: true, upstreams, problems: [] };
  return { ok: false, problems: placeProblems(problems, read.rangeOf) };
}

/**
 * Validates an upstreams document already read into plain values; pushes every problem with its path.
 *
 * @example
 * validateUpstreams({ servers: [{ name: 'x', http: { url: 'ftp://x' } }] }, problems) // undefined; INVALID_VALUE at /servers/0/http/url
 */
export function validateUpstreams(value: unknown, problems: Diagnostic[]): Upstreams | undefined {
  const before = problems.length;
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', '', 'the upstreams document is a mapping with a servers list'));
    return undefined;
  }
  checkMembers(value, '', MEMBERS, problems);
  if (value.servers === undefined) {
    problems.push(problem('MISSING_MEMBER', '', 'add servers: the list of upstream MCP servers'));
    return undefined;
  }
  const servers = readList(value.servers, '/servers', MAX_SERVERS, problems, (raw, at) => readServer(raw, at, problems));
  if (servers === undefined || problems.length !== before) return undefined;
  return { servers };
}

function readServer(raw: unknown, at: string, problems: Diagnostic[]): { key: string; value: Upstream } | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', at, 'a server is a mapping: name, and stdio or http'));
    return undefined;
  }
  const before = problems.length;
  checkMembers(raw, at, SERVER_MEMBERS, problems);
  const name = raw.name;
  if (name === undefined) problems.push(problem('MISSING_MEMBER', at, 'a server needs a name'));
  else if (!(typeof name === 'string' && SERVER_NAME.test(name))) {
    problems.push(
      problem('INVALID_VALUE', `${at}/name`, 'a server name is 1-64 lowercase letters, digits, _ and -, starting with a letter or digit'),
    );
  }
  if ((raw.stdio === undefined) === (raw.http === undefined)) {
    problems.push(problem('INVALID_VALUE', at, 'a server is reached over exactly one of stdio or http'));
    return undefined;
  }
  const server = raw.stdio !== undefined ? readStdio(raw.stdio, `${at}/stdio`, problems) : readHttp(raw.http, `${at}/http`, problems);
  if (server === undefined || problems.length !== before) return undefined;
  return { key: name as string, value: { name: name as string, ...server } as Upstream };
}

function readStdio(raw: unknown, at: string, problems: Diagnostic[]): Omit<StdioUpstream, 'name'> | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', at, 'stdio is a mapping: command, args, env'));
    return undefined;
  }
  checkMembers(raw, at, STDIO_MEMBERS, problems);
  const command = readString(raw.command, `${at}/command`, problems, 'the program to start, such as node or npx');
  const args = raw.args === undefined ? [] : readStrings(raw.args, `${at}/args`, MAX_ARGS, problems);
  const env = raw.env === undefined ? [] : readEnvNames(raw.env, `${at}/env`, problems);
  if (command === undefined || args === undefined || env === undefined) return undefined;
  return { transport: 'stdio', command, args, env };
}

function readHttp(raw: unknown, at: string, problems: Diagnostic[]): Omit<HttpUpstream, 'name'> | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', at, 'http is a mapping: url, headers'));
    return undefined;
  }
  checkMembers(raw, at, HTTP_MEMBERS, problems);
  const url = readString(raw.url, `${at}/url`, problems, 'the server’s Streamable HTTP endpoint, such as https://example.com/mcp');
  if (url !== undefined && !isHttpUrl(url)) {
    problems.push(problem('INVALID_VALUE', `${at}/url`, 'an http or https URL without credentials in it (put those in headers)'));
    return undefined;
  }
  const headers = raw.headers === undefined ? {} : readHeaders(raw.headers, `${at}/headers`, problems);
  if (url === undefined || headers === undefined) return undefined;
  return { transport: 'http', url, headers };
}

/**
 * Whether `text` is an http(s) URL without a user or password (a secret in a URL would sit in the document).
 *
 * @example
 * isHttpUrl('https://search.example.com/mcp') // true
 * isHttpUrl('https://user:pw@example.com/') // false
 */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

function readString(value: unknown, at: string, problems: Diagnostic[], what: string): string | undefined {
  if (value === undefined) {
    problems.push(problem('MISSING_MEMBER', at, `add ${at.slice(at.lastIndexOf('/') + 1)}: ${what}`));
    return undefined;
  }
  if (typeof value !== 'string' || value === '' || value.length > MAX_UPSTREAM_TEXT) {
    problems.push(problem('INVALID_VALUE', at, `expected text of 1 to ${MAX_UPSTREAM_TEXT} characters: ${what}`));
    return undefined;
  }
  return value;
}

function readStrings(value: unknown, at: string, max: number, problems: Diagnostic[]): string[] | undefined {
  if (!Array.isArray(value)) {
    problems.push(problem('INVALID_TYPE', at, 'expected a list of strings'));
    return undefined;
  }
  if (value.length > max) {
    problems.push(problem('LIST_TOO_LONG', at, `at most ${max} items`));
    return undefined;
  }
  const before = problems.length;
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item.length > MAX_UPSTREAM_TEXT) {
      problems.push(problem('INVALID_VALUE', childPointer(at, i), `expected text of at most ${MAX_UPSTREAM_TEXT} characters`));
    }
  });
  return problems.length === before ? (value as string[]) : undefined;
}

function readEnvNames(value: unknown, at: string, problems: Diagnostic[]): string[] | undefined {
  return readList(value, at, MAX_ENV, problems, (item, i) => {
    if (typeof item === 'string' && ENV_NAME.test(item)) return { key: item, value: item };
    problems.push(
      problem(
        'INVALID_ENV_NAME',
        i,
        'an environment variable’s name (letters, digits and _), never its value: values come from the environment',
      ),
    );
    return undefined;
  });
}

function readHeaders(value: unknown, at: string, problems: Diagnostic[]): Record<string, string> | undefined {
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', at, 'headers map a header name to the environment variable holding its value'));
    return undefined;
  }
  const before = problems.length;
  const entries = Object.entries(value);
  if (entries.length > MAX_ENV) problems.push(problem('LIST_TOO_LONG', at, `at most ${MAX_ENV} headers`));
  const seen = new Set<string>();
  for (const [header, env] of entries) {
    const path = childPointer(at, header);
    if (!HEADER_NAME.test(header)) problems.push(problem('INVALID_VALUE', path, 'a header name is an HTTP token, such as Authorization'));
    else if (seen.has(header.toLowerCase()))
      problems.push(problem('DUPLICATE_VALUE', path, `${header} is named twice (header names ignore case)`));
    seen.add(header.toLowerCase());
    if (!(typeof env === 'string' && ENV_NAME.test(env))) {
      problems.push(
        problem('INVALID_ENV_NAME', path, 'the name of the environment variable holding the header’s value, never the value itself'),
      );
    }
  }
  return problems.length === before ? (value as Record<string, string>) : undefined;
}
