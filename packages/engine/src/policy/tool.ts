// Tool bindings and their amount mappings: validated once, compiled to a reader that takes a call's
// amount out of its arguments exactly (docs/policy.md, "Amounts").

import { unknownMember } from '../conditions/condition.ts';
import { isDecimalValue } from '../conditions/decimal.ts';
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { MISSING, parsePointer, resolvePointer } from '../source/json-pointer.ts';
import { isActionName, isReserved } from './pattern.ts';
import type { AmountMapping, ToolBinding } from './types.ts';

export const CURRENCY = /^[A-Z]{3}$/;
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const TOOL_MEMBERS = ['name', 'action', 'amount'];
const MAPPING_MEMBERS = ['pointer', 'currency', 'currency_pointer'];

/** Validates a tool binding; every problem with its path. */
export function validateToolBinding(tool: unknown, path = ''): Diagnostic[] {
  const problems: Diagnostic[] = [];
  if (!isObject(tool)) {
    problems.push(problem('INVALID_TYPE', path, 'a tool is an object {"name", "action", "amount"?}'));
    return problems;
  }
  for (const key of Object.keys(tool)) if (!TOOL_MEMBERS.includes(key)) problems.push(unknownMember(path, key, TOOL_MEMBERS));
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    problems.push(
      problem(
        tool.name === undefined ? 'MISSING_MEMBER' : 'INVALID_TOOL_NAME',
        `${path}/name`,
        'a tool name is 1-128 letters, digits, _, - or .',
      ),
    );
  }
  if (typeof tool.action !== 'string' || !isActionName(tool.action) || isReserved(tool.action)) {
    problems.push(
      problem(
        tool.action === undefined ? 'MISSING_MEMBER' : 'INVALID_ACTION',
        `${path}/action`,
        'an action is dot-separated segments of a-z, 0-9, _ and - (such as refund.issue), outside the reserved tollgate. namespace',
      ),
    );
  }
  if (tool.amount !== undefined) validateMapping(tool.amount, `${path}/amount`, problems);
  return problems;
}

function validateMapping(mapping: unknown, path: string, problems: Diagnostic[]): void {
  if (!isObject(mapping)) {
    problems.push(problem('INVALID_TYPE', path, 'an amount mapping is {"pointer", "currency", "currency_pointer"?}'));
    return;
  }
  for (const key of Object.keys(mapping)) if (!MAPPING_MEMBERS.includes(key)) problems.push(unknownMember(path, key, MAPPING_MEMBERS));
  for (const key of ['pointer', 'currency_pointer'] as const) {
    const value = mapping[key];
    if (value === undefined && key === 'currency_pointer') continue;
    const tokens = typeof value === 'string' ? parsePointer(value) : undefined;
    if (tokens === undefined || tokens.length === 0) {
      problems.push(
        problem(
          value === undefined ? 'MISSING_MEMBER' : 'INVALID_POINTER',
          `${path}/${key}`,
          'expected a JSON Pointer into the arguments such as "/amount"',
        ),
      );
    }
  }
  if (typeof mapping.currency !== 'string' || !CURRENCY.test(mapping.currency)) {
    problems.push(
      problem(
        mapping.currency === undefined ? 'MISSING_MEMBER' : 'INVALID_CURRENCY',
        `${path}/currency`,
        'a currency is an ISO 4217 code of three uppercase letters, such as USD',
      ),
    );
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What reading a call's amount gave: a decimal string, no amount, or a value that must be refused. */
export const NO_AMOUNT = undefined;
export const INVALID_AMOUNT = null;
export type AmountReading = string | typeof NO_AMOUNT | typeof INVALID_AMOUNT;

/** A tool compiled for evaluation: its pointers pre-split. */
export class CompiledTool {
  readonly name: string;
  readonly action: string;
  /** The tool's currency, or undefined when it has no amount mapping. */
  readonly currency: string | undefined;
  /** The binding's problems; a tool with any is refused with INVALID_TOOL_CONFIGURATION. */
  readonly problems: Diagnostic[];
  private readonly amountTokens: readonly string[] | undefined;
  private readonly currencyTokens: readonly string[] | undefined;

  constructor(binding: ToolBinding) {
    this.problems = validateToolBinding(binding);
    this.name = String(binding?.name ?? '');
    this.action = String(binding?.action ?? '');
    const mapping: AmountMapping | undefined = this.problems.length === 0 ? binding.amount : undefined;
    this.currency = mapping?.currency;
    this.amountTokens = mapping ? parsePointer(mapping.pointer) : undefined;
    this.currencyTokens = mapping?.currency_pointer !== undefined ? parsePointer(mapping.currency_pointer) : undefined;
  }

  get valid(): boolean {
    return this.problems.length === 0;
  }

  /**
   * Reads the call's amount: a decimal string in the tool's currency, `undefined` for no amount (no
   * mapping, or nothing at the pointer), or `null` for INVALID_AMOUNT (a value present but not an
   * accepted amount, or a currency pointer that does not name exactly the tool's currency).
   */
  readAmount(args: unknown): AmountReading {
    if (this.amountTokens === undefined) return NO_AMOUNT;
    if (this.currencyTokens !== undefined && resolvePointer(args, this.currencyTokens) !== this.currency) {
      return INVALID_AMOUNT;
    }
    const value = resolvePointer(args, this.amountTokens);
    if (value === MISSING) return NO_AMOUNT;
    if (typeof value === 'string') return isDecimalValue(value) ? value : INVALID_AMOUNT;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
    return INVALID_AMOUNT;
  }
}
