// The rule set document (rulesets/*.ruleset.json): a name, a status and pins of rule-document versions,
// read strictly with every problem's path and line (rule-sets.txt; docs/documents.md, "Rule sets").
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { childPointer } from '../source/json-pointer.ts';
import { readJsonText } from '../source/json-text.ts';
import { placeProblems } from '../source/place-problems.ts';
import { documentKindOf } from './kinds.ts';
import { checkMembers, isRecord, kindWords, type ReferenceContext, readChoice, readList, readReference, readText } from './values.ts';

export const RULESET_STATUSES = ['draft', 'test', 'active', 'archived'] as const;
export type RulesetStatus = (typeof RULESET_STATUSES)[number];

/** One pinned document: a policy, sheet or Colang id, at a stored version or (no sequence) its running one. */
export interface RulesetPin {
  document: string;
  sequence?: number;
}

export interface Ruleset {
  name: string;
  description?: string;
  tags?: string[];
  status: RulesetStatus;
  replaced_by?: string;
  pins: RulesetPin[];
}

export type RulesetResult = { ok: true; ruleset: Ruleset; problems: [] } | { ok: false; problems: Diagnostic[] };

export const MAX_PINS = 100;
export const MAX_TAGS = 32;
const MAX_NAME = 100;
const MAX_DESCRIPTION = 500;
const MAX_TAG = 64;
const MEMBERS = ['name', 'description', 'tags', 'status', 'replaced_by', 'pins'];
const PIN_MEMBERS = ['document', 'sequence'];
const PINNABLE = ['policy', 'sheet', 'colang'] as const;

/**
 * Reads a rule set from its JSON text. With a store to ask, every pinned document (and version) must
 * exist; with its own id, it cannot name itself as its replacement.
 *
 * @example
 * readRuleset('{"name": "Support", "status": "draft", "pins": [{"document": "policies/refunds.policy.json", "sequence": 2}]}')
 * // { ok: true, ruleset: { name: 'Support', status: 'draft', pins: [{ document: 'policies/refunds.policy.json', sequence: 2 }] }, problems: [] }
 */
export function readRuleset(text: string, context?: ReferenceContext, id?: string): RulesetResult {
  const read = readJsonText(text);
  if (!read.ok) return { ok: false, problems: [{ ...read.diagnostic, path: '' }] };
  const problems = [...read.diagnostics];
  const ruleset = validateRuleset(read.value, problems, context, id);
  if (ruleset !== undefined && problems.length === 0) return { ok: true, ruleset, problems: [] };
  return { ok: false, problems: placeProblems(problems, read.rangeOf) };
}

/**
 * Validates a rule set already read into plain values; pushes every problem with its path and returns
 * the rule set when there were none.
 *
 * @example
 * validateRuleset({ name: 'Support', status: 'draft', pins: [] }, problems) // undefined; problems: RULESET_EMPTY at /pins
 */
export function validateRuleset(value: unknown, problems: Diagnostic[], context?: ReferenceContext, id?: string): Ruleset | undefined {
  const before = problems.length;
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', '', 'a rule set is an object {"name", "status", "pins", ...}'));
    return undefined;
  }
  checkMembers(value, '', MEMBERS, problems);
  if (value.name === undefined) problems.push(problem('MISSING_MEMBER', '', 'a rule set needs "name"'));
  const name = readText(value.name, '/name', MAX_NAME, problems);
  const description = readText(value.description, '/description', MAX_DESCRIPTION, problems);
  const tags =
    value.tags === undefined
      ? undefined
      : readList(value.tags, '/tags', MAX_TAGS, problems, (tag, at) => {
          const text = readText(tag, at, MAX_TAG, problems);
          return text === undefined ? undefined : { key: text, value: text };
        });
  let status: RulesetStatus | undefined;
  if (value.status === undefined)
    problems.push(problem('MISSING_MEMBER', '', 'a rule set needs "status": draft, test, active or archived'));
  else status = readChoice(value.status, '/status', RULESET_STATUSES, problems);
  const replacedBy = readReplacement(value.replaced_by, status, problems, context, id);
  const pins = readPins(value.pins, problems, context);
  if (problems.length !== before || name === undefined || status === undefined || pins === undefined) return undefined;
  const ruleset: Ruleset = { name, status, pins };
  if (description !== undefined) ruleset.description = description;
  if (tags !== undefined) ruleset.tags = tags;
  if (replacedBy !== undefined) ruleset.replaced_by = replacedBy;
  return ruleset;
}

function readReplacement(
  value: unknown,
  status: RulesetStatus | undefined,
  problems: Diagnostic[],
  context?: ReferenceContext,
  id?: string,
): string | undefined {
  if (value === undefined) return undefined;
  if (status !== undefined && status !== 'archived') {
    problems.push(
      problem('REPLACED_BY_NOT_ARCHIVED', '/replaced_by', `replaced_by names a replacement for an archived set; this one is ${status}`),
    );
    return undefined;
  }
  if (value === id) {
    problems.push(problem('INVALID_VALUE', '/replaced_by', 'a rule set cannot be its own replacement'));
    return undefined;
  }
  return readReference(value, '/replaced_by', ['ruleset'], problems, context);
}

function readPins(value: unknown, problems: Diagnostic[], context?: ReferenceContext): RulesetPin[] | undefined {
  if (value === undefined) {
    problems.push(problem('MISSING_MEMBER', '', 'a rule set needs "pins": the policy, sheet and Colang versions it groups'));
    return undefined;
  }
  if (!Array.isArray(value)) {
    problems.push(problem('INVALID_TYPE', '/pins', 'pins is a list of {"document", "sequence"}'));
    return undefined;
  }
  if (value.length === 0) problems.push(problem('RULESET_EMPTY', '/pins', 'a rule set pins at least one policy, sheet or Colang document'));
  if (value.length > MAX_PINS) problems.push(problem('LIST_TOO_LONG', '/pins', `at most ${MAX_PINS} pins`));
  const pins: RulesetPin[] = [];
  const first = new Map<string, number>();
  value.forEach((raw, i) => {
    const at = childPointer('/pins', i);
    const pin = readPin(raw, at, problems, context);
    if (pin === undefined) return;
    const earlier = first.get(pin.document);
    if (earlier !== undefined) {
      problems.push(problem('DUPLICATE_PIN', `${at}/document`, `${pin.document} is pinned already (pin ${earlier}); pin a document once`));
      return;
    }
    first.set(pin.document, i);
    pins.push(pin);
  });
  return pins;
}

function readPin(raw: unknown, at: string, problems: Diagnostic[], context?: ReferenceContext): RulesetPin | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', at, 'a pin is {"document": "policies/refunds.policy.json", "sequence": 2}'));
    return undefined;
  }
  const before = problems.length;
  checkMembers(raw, at, PIN_MEMBERS, problems);
  const document = raw.document;
  if (document === undefined) problems.push(problem('MISSING_MEMBER', at, 'a pin needs "document": a policy, sheet or Colang id'));
  else if (typeof document !== 'string') problems.push(problem('INVALID_TYPE', `${at}/document`, 'expected a document id'));
  else {
    const kind = documentKindOf(document);
    if (kind === undefined || !(PINNABLE as readonly string[]).includes(kind)) {
      problems.push(
        problem(
          'WRONG_DOCUMENT_KIND',
          `${at}/document`,
          `${document} is ${kind ? kindWords(kind) : 'no document id'}; a rule set pins policies/*.policy.json, sheets/*.rules.yaml or colang/*.co`,
        ),
      );
    }
  }
  const sequence = raw.sequence;
  if (sequence !== undefined && !(typeof sequence === 'number' && Number.isSafeInteger(sequence) && sequence > 0)) {
    problems.push(problem('INVALID_VALUE', `${at}/sequence`, 'a sequence is a positive integer: the stored version to pin'));
  }
  if (problems.length !== before || typeof document !== 'string') return undefined;
  const pin: RulesetPin = { document };
  if (typeof sequence === 'number') pin.sequence = sequence;
  if (context?.exists && !context.exists(document, pin.sequence)) {
    const what = pin.sequence === undefined ? document : `version ${pin.sequence} of ${document}`;
    problems.push(
      problem('REFERENCE_NOT_FOUND', pin.sequence === undefined ? `${at}/document` : `${at}/sequence`, `${what} does not exist`),
    );
    return undefined;
  }
  return pin;
}
