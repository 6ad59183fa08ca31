// Reads the run panel's call JSON before it is sent, with a message saying what to mend.
import { type PastedPlace, pastedProblem, readPastedJson } from '../../lib/read-pasted-json.ts';
import type { RulesetCall } from './api/types.ts';

/** `place`: where in the text the problem is, when the text does not read as exact JSON. */
export type ParsedCall = { ok: true; call: RulesetCall } | { ok: false; message: string; place?: PastedPlace };

const MEMBERS = ['tool', 'arguments', 'history', 'contexts', 'confirmed'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function problemOf(value: Record<string, unknown>): string | null {
  const unknown = Object.keys(value).find((k) => !MEMBERS.includes(k));
  if (unknown !== undefined) return `"${unknown}" is not part of a call; a call has ${MEMBERS.join(', ')}`;
  if (typeof value.tool !== 'string' || value.tool === '') return 'tool must be a non-empty string, such as "issue_refund"';
  if (!('arguments' in value)) return 'arguments is missing: give an object, such as {"amount": "50"}';
  if (value.history !== undefined && !Array.isArray(value.history)) return 'history must be a list of earlier calls';
  if (value.contexts !== undefined && !isObject(value.contexts)) return 'contexts must be an object';
  if (value.confirmed !== undefined && typeof value.confirmed !== 'boolean') return 'confirmed must be true or false';
  return null;
}

/** Example: `parseCall('{"tool":"read_order","arguments":{}}')` is ok with that call. */
export function parseCall(text: string): ParsedCall {
  const read = readPastedJson(text);
  if (!read.ok) return { ok: false, message: pastedProblem('The call is', read), place: read.place };
  const value = read.value;
  if (!isObject(value)) return { ok: false, message: 'The call must be a JSON object {"tool", "arguments"}.' };
  const problem = problemOf(value);
  return problem === null
    ? { ok: true, call: value as unknown as RulesetCall }
    : { ok: false, message: `The call is not valid: ${problem}.` };
}
