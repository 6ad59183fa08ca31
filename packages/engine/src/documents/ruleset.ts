// The rule set document (rulesets/*.ruleset.json): a name, a description, tags and pins of rule-document
// versions, read strictly with every problem's path and line (docs/rulesets.md). A set's
// status, replacement and active version are lifecycle state beside the document, not its text: changing
// them saves no new version (docs/rulesets.md, "Versions and lifecycle").
import type { Code } from '../codes/index.ts';
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { childPointer } from '../source/json-pointer.ts';
import { readJsonText } from '../source/json-text.ts';
import { placeProblems } from '../source/place-problems.ts';
import { documentKindOf } from './kinds.ts';
import { checkMembers, isRecord, kindWords, readList, readText } from './values.ts';

/** The statuses of rule documents and rule sets alike. */
export const RULE_STATUSES = ['draft', 'test', 'active', 'disabled', 'archived'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];
/** Kept for readers of the gate's types: a rule set has the same statuses as a rule. */
export type RulesetStatus = RuleStatus;

/**
 * One pinned rule: a policy, sheet or Colang document at a stored version. A pin written without one takes the
 * rule's running version when the set version is made (`resolvePins`).
 */
export interface RulesetPin {
  rule_id: string;
  version_id?: number;
}

export interface Ruleset {
  name: string;
  description?: string;
  tags?: string[];
  pins: RulesetPin[];
}

/** A pinned rule as the store holds it. */
export interface PinnedRule {
  status: RuleStatus;
  hasVersion(version: number): boolean;
  /**
   * The version that runs now, which a pin naming no version takes when the set version is made; null when
   * none runs (such a pin is refused), undefined when the context does not tell.
   */
  running?: number | null;
}

/** What a rule set's reader may ask about a pinned rule, when a store is at hand. */
export interface PinContext {
  /**
   * The rule as the member reading sees it: undefined when the member cannot see it (every member sees the
   * whole workspace, so that is a rule the store does not hold); `hasVersion` tells a stored, loadable version.
   */
  rule(id: string): PinnedRule | undefined;
}

/** A refusal lists every problem and, once each in pin order, the rules at fault. */
export type RulesetResult = { ok: true; ruleset: Ruleset; problems: [] } | { ok: false; problems: Diagnostic[]; rules: string[] };

export const MAX_PINS = 64;
export const MAX_TAGS = 32;
const MAX_NAME = 100;
const MAX_DESCRIPTION = 500;
const MAX_TAG = 64;
const MEMBERS = ['name', 'description', 'tags', 'pins'];
const PIN_MEMBERS = ['rule_id', 'version_id'];
const PINNABLE = ['policy', 'sheet', 'colang'] as const;

/**
 * Reads a rule set from its JSON text. With a store to ask, every pinned rule must be one the member can
 * see, at a version that exists, and neither disabled nor archived.
 *
 * @example
 * readRuleset('{"name": "Support", "pins": [{"rule_id": "policies/refunds.policy.json", "version_id": 2}]}')
 * // { ok: true, ruleset: { name: 'Support', pins: [{ rule_id: 'policies/refunds.policy.json', version_id: 2 }] }, problems: [] }
 */
export function readRuleset(text: string, context?: PinContext): RulesetResult {
  const read = readJsonText(text);
  if (!read.ok) return { ok: false, problems: [{ ...read.diagnostic, path: '' }], rules: [] };
  const problems = [...read.diagnostics];
  const rules: string[] = [];
  const ruleset = validateRuleset(read.value, problems, context, rules);
  if (ruleset !== undefined && problems.length === 0) return { ok: true, ruleset, problems: [] };
  return { ok: false, problems: placeProblems(problems, read.rangeOf), rules };
}

/**
 * Validates a rule set already read into plain values; pushes every problem with its path and returns
 * the rule set when there were none. Every problem about a pin names its rule.
 *
 * @example
 * validateRuleset({ name: 'Support', pins: [] }, problems) // undefined; problems: RULESET_EMPTY at /pins
 */
export function validateRuleset(value: unknown, problems: Diagnostic[], context?: PinContext, rules: string[] = []): Ruleset | undefined {
  const before = problems.length;
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', '', 'a rule set is an object {"name", "description", "tags", "pins"}'));
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
  const pins = readPins(value.pins, { problems, rules }, context);
  if (problems.length !== before || name === undefined || pins === undefined) return undefined;
  const ruleset: Ruleset = { name, pins };
  if (description !== undefined) ruleset.description = description;
  if (tags !== undefined) ruleset.tags = tags;
  return ruleset;
}

/** Where problems go: every pin problem also names its rule, once, among the rules at fault. */
interface Faults {
  problems: Diagnostic[];
  rules: string[];
}

function pinProblem(faults: Faults, code: Code, path: string, rule: string, message: string): void {
  faults.problems.push(problem(code, path, message));
  if (!faults.rules.includes(rule)) faults.rules.push(rule);
}

function readPins(value: unknown, faults: Faults, context?: PinContext): RulesetPin[] | undefined {
  const { problems } = faults;
  if (value === undefined) {
    problems.push(problem('MISSING_MEMBER', '', 'a rule set needs "pins": the policy, sheet and Colang versions it groups'));
    return undefined;
  }
  if (!Array.isArray(value)) {
    problems.push(problem('INVALID_TYPE', '/pins', 'pins is a list of {"rule_id", "version_id"}'));
    return undefined;
  }
  if (value.length === 0) problems.push(problem('RULESET_EMPTY', '/pins', 'a rule set pins at least one policy, sheet or Colang document'));
  if (value.length > MAX_PINS) {
    problems.push(problem('RULESET_TOO_LARGE', '/pins', `a rule set pins at most ${MAX_PINS} rules; this one pins ${value.length}`));
    // The rules past the limit are the ones at fault.
    for (const raw of value.slice(MAX_PINS)) {
      if (isRecord(raw) && typeof raw.rule_id === 'string' && !faults.rules.includes(raw.rule_id)) faults.rules.push(raw.rule_id);
    }
  }
  const pins: RulesetPin[] = [];
  // The first pin of each rule, whatever its own problems: a later pin of the rule is a duplicate even when
  // the first is refused, so every problem of every pin is listed once (docs/documents.md, "Rule sets").
  const first = new Map<string, number>();
  value.forEach((raw, i) => {
    const pin = readPin(raw, childPointer('/pins', i), i, first, faults, context);
    if (pin !== undefined) pins.push(pin);
  });
  return pins;
}

/**
 * One pin's problems, each once. A rule's own problems (its kind, whether the member can see it, its status)
 * are told at its first pin; a later pin of the same rule is a DUPLICATE_PIN, and still has its version
 * checked, since the version is that pin's own.
 */
function readPin(
  raw: unknown,
  at: string,
  index: number,
  first: Map<string, number>,
  faults: Faults,
  context?: PinContext,
): RulesetPin | undefined {
  if (!isRecord(raw)) {
    faults.problems.push(problem('INVALID_TYPE', at, 'a pin is {"rule_id": "policies/refunds.policy.json", "version_id": 2}'));
    return undefined;
  }
  const { problems } = faults;
  const before = problems.length;
  checkMembers(raw, at, PIN_MEMBERS, problems);
  const id = raw.rule_id;
  const version = raw.version_id;
  const versionValid = version === undefined || (typeof version === 'number' && Number.isSafeInteger(version) && version > 0);
  if (id === undefined) problems.push(problem('MISSING_MEMBER', at, 'a pin needs "rule_id": a policy, sheet or Colang id'));
  else if (typeof id !== 'string') problems.push(problem('INVALID_TYPE', `${at}/rule_id`, 'expected a document id'));
  if (typeof id !== 'string') {
    if (!versionValid)
      problems.push(problem('INVALID_VALUE', `${at}/version_id`, 'a version_id is a positive integer: the stored version to pin'));
    return undefined;
  }
  const earlier = first.get(id);
  if (earlier === undefined) first.set(id, index);
  const kind = documentKindOf(id);
  const pinnable = kind !== undefined && (PINNABLE as readonly string[]).includes(kind);
  if (earlier !== undefined) {
    pinProblem(faults, 'DUPLICATE_PIN', `${at}/rule_id`, id, `${id} is pinned already (pin ${earlier}); pin a rule once`);
  } else if (!pinnable) {
    pinProblem(
      faults,
      'WRONG_DOCUMENT_KIND',
      `${at}/rule_id`,
      id,
      `${id} is ${kind ? kindWords(kind) : 'no document id'}; a rule set pins policies/*.policy.json, sheets/*.rules.yaml or colang/*.co`,
    );
  }
  if (!versionValid) {
    pinProblem(faults, 'INVALID_VALUE', `${at}/version_id`, id, 'a version_id is a positive integer: the stored version to pin');
  }
  const pin: RulesetPin = { rule_id: id };
  if (typeof version === 'number') pin.version_id = version;
  if (context !== undefined && pinnable) checkPinInStore(pin, at, earlier === undefined, versionValid, faults, context);
  return problems.length === before ? pin : undefined;
}

/** The store's checks of one pin: the rule's own (at its first pin only) and the version's. */
function checkPinInStore(
  pin: RulesetPin,
  at: string,
  firstOfRule: boolean,
  versionValid: boolean,
  faults: Faults,
  context: PinContext,
): void {
  const id = pin.rule_id;
  const rule = context.rule(id);
  if (rule === undefined) {
    // Said once, at the first pin; a later pin of it says nothing more of a rule the member cannot see.
    if (firstOfRule) pinProblem(faults, 'RULE_NOT_VISIBLE', `${at}/rule_id`, id, `${id} is not a rule you can see`);
    return;
  }
  if (pin.version_id !== undefined && versionValid && !rule.hasVersion(pin.version_id)) {
    pinProblem(faults, 'VERSION_NOT_FOUND', `${at}/version_id`, id, `version ${pin.version_id} of ${id} does not exist`);
  }
  if (pin.version_id === undefined && rule.running === null) {
    pinProblem(
      faults,
      'VERSION_NOT_FOUND',
      `${at}/rule_id`,
      id,
      `${id} has no running version for this pin to take; name a stored version with version_id`,
    );
  }
  if (firstOfRule && (rule.status === 'disabled' || rule.status === 'archived')) {
    pinProblem(
      faults,
      'RULE_NOT_PINNABLE',
      `${at}/rule_id`,
      id,
      `${id} is ${rule.status}; a set cannot pin ${rule.status === 'archived' ? 'an archived' : 'a disabled'} rule`,
    );
  }
}

/**
 * Pins every pin that names no version at its rule's running version, as a set version is made: the set
 * then behaves the same until someone changes it (docs/rulesets.md, "Pins are resolved when a
 * version is made"). Call it with the context `readRuleset` accepted the set with; a pin whose running version
 * the context does not tell is left as it is.
 *
 * @example
 * resolvePins({ name: 'S', pins: [{ rule_id: 'sheets/shop.rules.yaml' }] }, context) // pins: [{ rule_id: 'sheets/shop.rules.yaml', version_id: 3 }]
 */
export function resolvePins(ruleset: Ruleset, context: PinContext): Ruleset {
  const pins = ruleset.pins.map((pin) => {
    if (pin.version_id !== undefined) return pin;
    const running = context.rule(pin.rule_id)?.running;
    return typeof running === 'number' ? { rule_id: pin.rule_id, version_id: running } : pin;
  });
  return { ...ruleset, pins };
}
