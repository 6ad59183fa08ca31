// What a rule sheet reads into, and the reader's codes and limits (docs/rule-sheets.md).
import { MAX_TEXT } from '../rulebook/catalogue.ts';
import type { Check, ComparisonOp, Literal } from '../rulebook/types.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import type { SheetCode } from './codes.ts';

export const SHEET_KEYS = [
  'requires',
  'when',
  'never',
  'requires_confirmation',
  'confirmation',
  'after',
  'not_after',
  'at_most',
  'check',
] as const;

export interface SheetCondition {
  arg: string;
  op: ComparisonOp;
  value: Literal;
}

export interface SheetRule {
  action: string;
  line: number;
  requires?: string[];
  when?: SheetCondition[];
  never?: true;
  confirmation?: string;
  after?: string[];
  not_after?: string[];
  at_most?: number;
  checks?: Check[];
}

export interface Sheet {
  rules: SheetRule[];
  /** The line of `rules:`, where sheet-wide lints point. */
  line: number;
}

export type SheetReadResult = { ok: true; sheet: Sheet } | { ok: false; problems: Diagnostic[] };

export const UNSUPPORTED: SheetCode = 'rule_sheet_unsupported';
/** A sheet past one of the reader's limits (docs/rule-sheets.md, "Limits"). */
export const SHEET_LIMIT: SheetCode = 'rule_sheet_limit';

/**
 * The reader's limits (docs/architecture.md, "Reading hostile input": every reader has depth, size and count limits
 * that answer a code). A list names at most MAX_LIST_NAMES; confirmation words are capped as the
 * catalogue caps them (MAX_TEXT); a flow value nests at most MAX_VALUE_DEPTH collections.
 */
export const MAX_LIST_NAMES = 1000;
export const MAX_CONFIRMATION = MAX_TEXT;
export const MAX_VALUE_DEPTH = 16;
