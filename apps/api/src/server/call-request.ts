// The gate's request read by hand: the agent's name in the path and the call's JSON body, checked synchronously with
// the very issues (path, code, message) zod gives for the route's schemas in routes/gate.ts (`CallBody`, the `agent`
// parameter), so the 400s stay the same without zod-openapi's validators and their per-request work
// (docs/performance.md, "API gate"); call-request.test.ts holds the two to agreement. One check is added: arguments
// nested too deep (MAX_ARGUMENTS_DEPTH).
import { documentKindOf } from '@tollgate/engine';
import { idProblem } from '@tollgate/store';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { readCallBody } from './call-body-reader.ts';
import { ApiError } from './errors.ts';
import { EMPTY, readBodyText, readTextExactly } from './exact-body.ts';
import { MAX_BODY_DEPTH } from './json-depth.ts';

/** A call's body once `callBodyIssues` found nothing wrong with it. */
export interface CallRequestBody {
  tool: string;
  arguments: Record<string, unknown>;
  session?: string;
  contexts?: Record<string, unknown>;
  confirmed?: boolean;
}

/** One problem, as zod reports it (openapi.ts's `validationError` makes the error body). */
export interface RequestIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

export const MAX_AGENT_NAME = 128;
export const MAX_TOOL_NAME = 128;
export const MAX_SESSION = 256;
/**
 * How deep the arguments may nest, counting the arguments object: deeper ones are refused rather than
 * overflowing the stack where the gate walks them (their canonical JSON for the digest), which answered 500.
 * zod's schema sets no such bound; this is the one check it does not share.
 */
export const MAX_ARGUMENTS_DEPTH = 64;

/** What zod names a JSON value's type in "received ...". */
function receivedOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Length in code points, as zod measures strings: a surrogate pair is one character. */
export function codePoints(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

function typeIssue(issues: RequestIssue[], key: string, expected: string, value: unknown): void {
  issues.push({ path: [key], code: 'invalid_type', message: `Invalid input: expected ${expected}, received ${receivedOf(value)}` });
}

/** The path to the first object or array nested more than `room` levels into `value`, or undefined. */
export function tooDeep(value: unknown, room: number): (string | number)[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (room === 0) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = tooDeep(value[i], room - 1);
      if (path) return [i, ...path];
    }
    return undefined;
  }
  for (const key in value) {
    const path = tooDeep((value as Record<string, unknown>)[key], room - 1);
    if (path) return [key, ...path];
  }
  return undefined;
}

/** A string member of at least one and at most `max` characters. */
function checkString(issues: RequestIssue[], key: string, value: unknown, max: number): void {
  if (typeof value !== 'string') {
    typeIssue(issues, key, 'string', value);
    // zod runs a string's length checks on any value with a length (an array, {"length": ...}) as well,
    // with JavaScript's comparisons; so do these, for the same issues.
    if (value === null || value === undefined) return;
    const units = (value as { length?: unknown }).length as number;
    if (units === undefined) return;
    const origin = Array.isArray(value) ? 'array' : 'unknown';
    const [min, most] = origin === 'array' ? [`to have >=1 items`, `to have <=${max} items`] : ['to be >=1', `to be <=${max}`];
    try {
      if (!(units >= 1)) issues.push({ path: [key], code: 'too_small', message: `Too small: expected ${origin} ${min}` });
      if (!(units <= max)) issues.push({ path: [key], code: 'too_big', message: `Too big: expected ${origin} ${most}` });
    } catch {
      // A length no comparison can read ({"length": {"toString": {}}}) throws where zod would throw too: the type
      // issue above is the answer, never a 500.
    }
    return;
  }
  if (value.length === 0) {
    issues.push({ path: [key], code: 'too_small', message: 'Too small: expected string to have >=1 characters' });
  } else if (value.length > max && codePoints(value) > max) {
    issues.push({ path: [key], code: 'too_big', message: `Too big: expected string to have <=${max} characters` });
  }
}

/**
 * The problems with the agent's name from the path, or undefined when it is fine (the router never
 * matches an empty one).
 *
 * @example
 * agentNameIssues('support-bot'); // undefined
 */
export function agentNameIssues(name: string): RequestIssue[] | undefined {
  if (GOOD_NAMES.has(name)) return undefined;
  const issues = nameIssues(name);
  if (issues === undefined) {
    if (GOOD_NAMES.size >= MAX_GOOD_NAMES) GOOD_NAMES.clear();
    GOOD_NAMES.add(name);
  }
  return issues;
}

/**
 * Names already found good: a name's issues depend on the name alone, and every call sends its agent's, whose
 * check (the store's id rules) cost a few microseconds a call. Bounded, so made-up names cannot grow it.
 */
const GOOD_NAMES = new Set<string>();
const MAX_GOOD_NAMES = 1024;

function nameIssues(name: string): RequestIssue[] | undefined {
  if (name.length > MAX_AGENT_NAME && codePoints(name) > MAX_AGENT_NAME) {
    return [{ path: ['agent'], code: 'too_big', message: `Too big: expected string to have <=${MAX_AGENT_NAME} characters` }];
  }
  if (name.length === 0) return [{ path: ['agent'], code: 'too_small', message: 'Too small: expected string to have >=1 characters' }];
  const problem = agentNameProblem(name);
  if (problem) return [{ path: ['agent'], code: 'invalid_id', message: problem }];
  return undefined;
}

/**
 * Why a name can never name an agent (its document `agents/<name>.agent.yaml` is not an agent id the store
 * would hold: docs/api.md, "One vocabulary"), or undefined for a good one.
 *
 * @example
 * agentNameProblem('support-bot') // undefined
 * agentNameProblem('../settings') // 'agents/../settings.agent.yaml is not an agent document id ...'
 */
export function agentNameProblem(name: string): string | undefined {
  const id = `agents/${name}.agent.yaml`;
  const problem = idProblem(id);
  if (problem) return problem;
  if (documentKindOf(id) !== 'agent') return `${id} is not an agent document id (agents/<name>.agent.yaml): a name has no "/"`;
  return undefined;
}

/**
 * The problems with a call's body (a parsed JSON value), in zod's order: the members in the schema's
 * order, then the unknown members; undefined when there are none, and then `value` is a
 * `CallRequestBody` as it stands: nothing is copied.
 *
 * @example
 * callBodyIssues({ tool: 'issue_refund' }); // [{ path: ['arguments'], code: 'invalid_type', message: 'Invalid input: expected record, received undefined' }]
 */
export function callBodyIssues(value: unknown): RequestIssue[] | undefined {
  if (!isRecord(value))
    return [{ path: [], code: 'invalid_type', message: `Invalid input: expected object, received ${receivedOf(value)}` }];
  const { tool, arguments: args, session, contexts, confirmed } = value;
  // The common case costs a handful of type checks and a walk over the keys.
  if (
    typeof tool === 'string' &&
    tool.length > 0 &&
    tool.length <= MAX_TOOL_NAME &&
    isRecord(args) &&
    tooDeep(args, MAX_ARGUMENTS_DEPTH) === undefined &&
    (session === undefined || (typeof session === 'string' && session.length > 0 && session.length <= MAX_SESSION)) &&
    (contexts === undefined || isRecord(contexts)) &&
    (confirmed === undefined || typeof confirmed === 'boolean') &&
    onlyKnownKeys(value)
  ) {
    return undefined;
  }
  const issues: RequestIssue[] = [];
  checkString(issues, 'tool', tool, MAX_TOOL_NAME);
  if (!isRecord(args)) typeIssue(issues, 'arguments', 'record', args);
  else {
    const deep = tooDeep(args, MAX_ARGUMENTS_DEPTH);
    if (deep)
      issues.push({
        path: ['arguments', ...deep],
        code: 'too_deep',
        message: `Too deep: arguments nest at most ${MAX_ARGUMENTS_DEPTH} levels`,
      });
  }
  if (session !== undefined) checkString(issues, 'session', session, MAX_SESSION);
  if (contexts !== undefined && !isRecord(contexts)) typeIssue(issues, 'contexts', 'record', contexts);
  if (confirmed !== undefined && typeof confirmed !== 'boolean') typeIssue(issues, 'confirmed', 'boolean', confirmed);
  const unknown = Object.keys(value).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) {
    issues.push({
      path: [],
      code: 'unrecognized_keys',
      message: `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => `"${k}"`).join(', ')}`,
    });
  }
  return issues.length > 0 ? issues : undefined;
}

const KNOWN = new Set(['tool', 'arguments', 'session', 'contexts', 'confirmed']);

function onlyKnownKeys(value: Record<string, unknown>): boolean {
  for (const key in value) if (!KNOWN.has(key)) return false;
  return true;
}

// zod-openapi's media-type gate (415 unless the type is JSON, or absent with no body) and Hono's JSON
// validator (400 "Malformed JSON in request body"), as they were in front of this route.
export const JSON_REQUEST = /^application\/([a-z.-]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/** A call's body as read: its JSON value, and the arguments' canonical text when the reader saw it as sent. */
export interface ReadCall {
  value: unknown;
  /** `canonicalJson(arguments)`, which is also `writeJson(arguments)`, when the body spelt it so (call-body-reader.ts). */
  argumentsText: string | undefined;
}

/**
 * The request's body as a JSON value, read exactly: a body of another media type is 415, a missing or
 * empty one 400 INVALID_BODY, as every route that requires a body answers (openapi.ts), and one the exact
 * reader refuses the Response that says why. The gate's one-pass reader reads the bodies it knows the shape
 * of; whatever it leaves, the exact reader reads, as every other route's body (exact-body.ts).
 */
export async function readJsonBody(c: Context, maxBytes: number): Promise<ReadCall | Response> {
  const type = c.req.header('content-type');
  if (type === undefined) {
    if ((await c.req.arrayBuffer()).byteLength > 0) throw new HTTPException(415, { message: 'Unsupported Media Type' });
    throw new ApiError('INVALID_BODY', 'a body is required');
  }
  if (!JSON_REQUEST.test(type)) throw new HTTPException(415, { message: 'Unsupported Media Type' });
  const text = await readBodyText(c);
  if (text === EMPTY) throw new ApiError('INVALID_BODY', 'a body is required');
  if (typeof text !== 'string') return text;
  const fast = readCallBody(text, { maxLength: maxBytes, maxDepth: MAX_BODY_DEPTH });
  if (fast !== undefined) return fast;
  const read = readTextExactly(c, text, maxBytes);
  return read instanceof Response ? read : { value: read.value, argumentsText: undefined };
}
