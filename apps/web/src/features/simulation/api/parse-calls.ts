// Reads pasted calls (JSON) before they are sent, with a message naming the first call at fault.
import { type PastedPlace, pastedProblem, readPastedJson } from '../../../lib/read-pasted-json.ts';
import type { PastedCall } from './types.ts';

/** `place`: where in the text the problem is, when the text does not read as exact JSON. */
export type ParsedCalls = { ok: true; calls: PastedCall[] } | { ok: false; message: string; place?: PastedPlace };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function problemOf(call: unknown): string | null {
  if (!isObject(call)) return 'is not an object {tool, arguments, expect?}';
  const { tool } = call;
  if (!isObject(tool)) return 'has no tool object {name, action, amount?}';
  if (typeof tool.name !== 'string' || tool.name === '') return 'tool.name must be a non-empty string';
  if (typeof tool.action !== 'string' || tool.action === '') return 'tool.action must be a non-empty string';
  if (tool.amount !== undefined && !isObject(tool.amount)) return 'tool.amount must be an object {pointer, currency}';
  if (!('arguments' in call)) return 'has no arguments (an object, or null when unknown)';
  if (call.arguments !== null && !isObject(call.arguments)) return 'arguments must be an object or null';
  if (call.expect !== undefined && !(isObject(call.expect) && typeof call.expect.decision === 'string')) {
    return 'expect must be an object with a decision';
  }
  return null;
}

/** Example: `parseCalls('[{"tool":{"name":"t","action":"a"},"arguments":{}}]')` is ok with one call. */
export function parseCalls(text: string): ParsedCalls {
  const read = readPastedJson(text);
  if (!read.ok) return { ok: false, message: pastedProblem('The calls are', read), place: read.place };
  const value = read.value;
  if (!Array.isArray(value)) return { ok: false, message: 'The calls must be a JSON array of {tool, arguments, expect?}.' };
  if (value.length === 0) return { ok: false, message: 'The calls are empty: paste at least one call.' };
  for (const [i, call] of value.entries()) {
    const problem = problemOf(call);
    if (problem) return { ok: false, message: `Call ${i + 1} ${problem}.` };
  }
  return { ok: true, calls: value as PastedCall[] };
}
