// Reading a template's parameters from strings: types, ranges, normalisation, order and overlap, every problem reported.
import { compareDecimal, isDecimalString, normalizeDecimal } from '../../conditions/decimal.ts';
import { problem } from '../../conditions/family.ts';
import type { Diagnostic } from '../../source/diagnostic.ts';
import { childPointer } from '../../source/json-pointer.ts';
import { isActionPattern, isReserved } from '../pattern.ts';
import { CURRENCY } from '../tool.ts';
import { MAX_ACTIONS, MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../validate.ts';
import { patternsOverlap } from './patterns.ts';
import type { ParameterValue, Template, TemplateParameter } from './types.ts';

/** The largest amount parameter: 10^15. */
export const MAX_AMOUNT_PARAMETER = '1000000000000000';
const INTEGER = /^(?:0|[1-9][0-9]*)$/;

/** Validated, normalised values of every parameter (given or default). */
export type ResolvedParameters = { ok: true; values: Record<string, ParameterValue> } | { ok: false; errors: Diagnostic[] };

/**
 * Reads `params` for `template`: unknown names (UNKNOWN_PARAMETER), bad values (INVALID_PARAMETER) and
 * misordered limits (PARAMETER_ORDER), all of them, each at `/params/<name>`.
 */
export function resolveParameters(template: Template, params: Readonly<Record<string, unknown>>): ResolvedParameters {
  const errors: Diagnostic[] = [];
  const known = template.parameters.map((p) => p.name);
  for (const name of Object.keys(params)) {
    if (!known.includes(name)) {
      errors.push(
        problem(
          'UNKNOWN_PARAMETER',
          parameterPath(name),
          `template "${template.name}" has no parameter "${name}"; it has ${known.join(', ')}`,
        ),
      );
    }
  }
  const values: Record<string, ParameterValue> = {};
  for (const parameter of template.parameters) {
    const given = Object.hasOwn(params, parameter.name) ? params[parameter.name] : parameter.default;
    const value = readParameter(parameter, given, errors);
    if (value !== undefined) values[parameter.name] = value;
  }
  checkOrder(template, params, values, errors);
  checkOverlap(template, params, values, errors);
  return errors.length === 0 ? { ok: true, values } : { ok: false, errors };
}

/** A parameter's value written back as text: patterns joined with commas. */
export function formatParameter(value: ParameterValue): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

function parameterPath(name: string): string {
  return childPointer('/params', name);
}

function readParameter(parameter: TemplateParameter, raw: unknown, errors: Diagnostic[]): ParameterValue | undefined {
  const path = parameterPath(parameter.name);
  const invalid = (message: string): undefined => {
    errors.push(problem('INVALID_PARAMETER', path, message));
    return undefined;
  };
  if (typeof raw !== 'string') return invalid(`${parameter.name} is given as text, such as "${parameter.default}"`);
  switch (parameter.type) {
    case 'currency':
      if (CURRENCY.test(raw)) return raw;
      return invalid(
        `${quote(raw)} is not a currency: use an ISO 4217 code of three uppercase letters, such as ${CURRENCY.test(raw.toUpperCase()) ? raw.toUpperCase() : 'USD'}`,
      );
    case 'amount':
      if (!isDecimalString(raw)) {
        return invalid(
          `${quote(raw)} is not an amount: write a non-negative decimal such as "100" or "99.50" (no sign, exponent or leading zeros)`,
        );
      }
      if (compareDecimal(raw, MAX_AMOUNT_PARAMETER) > 0)
        return invalid(`${quote(raw)} is over the largest amount, ${MAX_AMOUNT_PARAMETER} (10^15)`);
      return normalizeDecimal(raw);
    case 'integer': {
      const n = INTEGER.test(raw) && raw.length <= 8 ? Number(raw) : Number.NaN;
      if (n >= MIN_TTL_SECONDS && n <= MAX_TTL_SECONDS) return n;
      return invalid(`${quote(raw)} is not a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_TTL_SECONDS} (30 days)`);
    }
    case 'patterns':
      return readPatterns(raw, path, errors);
  }
}

function readPatterns(raw: string, path: string, errors: Diagnostic[]): string[] | undefined {
  const patterns: string[] = [];
  let bad = false;
  for (const item of raw.split(',')) {
    const pattern = item.trim();
    const message =
      pattern === ''
        ? 'an empty pattern: list action patterns separated by commas, such as "orders.read,orders.search"'
        : pattern === '*'
          ? '"*" alone would match every action; list the actions this rule is for'
          : !isActionPattern(pattern)
            ? `${quote(pattern)} is not an action pattern: dot-separated segments of a-z, 0-9, _ and -, with an optional final * (orders.*)`
            : isReserved(pattern)
              ? `${quote(pattern)} is in the reserved tollgate. namespace, which no tool action can use`
              : undefined;
    if (message !== undefined) {
      errors.push(problem('INVALID_PARAMETER', path, message));
      bad = true;
    } else if (!patterns.includes(pattern)) patterns.push(pattern);
  }
  if (patterns.length > MAX_ACTIONS) {
    errors.push(problem('INVALID_PARAMETER', path, `at most ${MAX_ACTIONS} patterns; ${patterns.length} were given`));
    bad = true;
  }
  return bad ? undefined : patterns;
}

function checkOrder(
  template: Template,
  params: Readonly<Record<string, unknown>>,
  values: Record<string, ParameterValue>,
  errors: Diagnostic[],
): void {
  for (const [lower, upper] of template.ordered) {
    const low = values[lower];
    const high = values[upper];
    if (typeof low !== 'string' || typeof high !== 'string' || compareDecimal(low, high) < 0) continue;
    // Point at the limit the caller set: the lower one, unless only the upper one was given.
    const blamed = Object.hasOwn(params, upper) && !Object.hasOwn(params, lower) ? upper : lower;
    errors.push(problem('PARAMETER_ORDER', parameterPath(blamed), `${lower} (${low}) must be strictly below ${upper} (${high})`));
  }
}

function checkOverlap(
  template: Template,
  params: Readonly<Record<string, unknown>>,
  values: Record<string, ParameterValue>,
  errors: Diagnostic[],
): void {
  const sets: { owner: string; patterns: readonly string[]; given: boolean }[] = [{ owner: '', patterns: template.actions, given: false }];
  for (const parameter of template.parameters) {
    const value = values[parameter.name];
    if (parameter.type === 'patterns' && Array.isArray(value)) {
      sets.push({ owner: parameter.name, patterns: value, given: Object.hasOwn(params, parameter.name) });
    }
  }
  sets.forEach((later, j) => {
    for (const earlier of sets.slice(0, j)) {
      // Point at the parameter the caller set: the later one, unless only the earlier one was given.
      const blamed = earlier.owner !== '' && earlier.given && !later.given ? earlier : later;
      const other = blamed === later ? earlier : later;
      const where = other.owner === '' ? 'the template itself' : other.owner;
      for (const pattern of later.patterns) {
        const clash = earlier.patterns.find((p) => patternsOverlap(p, pattern));
        if (clash === undefined) continue;
        const [mine, theirs] = blamed === later ? [pattern, clash] : [clash, pattern];
        errors.push(
          problem(
            'INVALID_PARAMETER',
            parameterPath(blamed.owner),
            `${quote(mine)} overlaps ${quote(theirs)}, which ${where} decides; each action must be decided by one part of the template`,
          ),
        );
      }
    }
  });
}

function quote(s: string): string {
  return JSON.stringify(s);
}
