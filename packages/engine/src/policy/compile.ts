// compilePolicy: a validated document becomes an evaluator that decides a call with no allocation on
// its common paths: candidates indexed by action (memoised), sorted so the first rule that applies
// wins (most restrictive effect, then document order), thresholds and pointers pre-read.
import { type Bounds, pickBounds, satisfiesBounds } from '../conditions/bounds.ts';
import { CompiledCondition } from '../conditions/condition.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from '../conditions/tri.ts';
import { keptNumberPaths } from '../source/json-number.ts';
import { type AmountReading, CompiledTool, INVALID_AMOUNT } from './tool.ts';
import type { DefaultEffect, Effect, PolicyDocument, PolicyRule, ToolBinding } from './types.ts';
import { validatePolicy } from './validate.ts';

/** The policy's own answer for one call, before approvers are resolved. Shared and frozen: never mutate. */
export interface PolicyOutcome {
  readonly decision: Effect;
  /** The deciding rule's id, or null for the default and refusals before rules. */
  readonly rule: string | null;
  readonly code: null | 'DEFAULT' | 'INVALID_AMOUNT' | 'INVALID_TOOL_CONFIGURATION';
}

const RANK: Record<Effect, number> = { deny: 2, require_approval: 1, allow: 0 };
const MAX_MEMO = 4096;

export class CompiledRule {
  readonly index: number;
  readonly id: string;
  readonly effect: Effect;
  readonly source: PolicyRule;
  readonly outcome: PolicyOutcome;
  readonly tools: ReadonlySet<string> | null;
  readonly amountCurrency: string | null;
  readonly amountBounds: Bounds | null;
  readonly conditions: readonly CompiledCondition[];
  private readonly strict: boolean;

  constructor(rule: PolicyRule, index: number) {
    this.index = index;
    this.id = rule.id;
    this.effect = rule.effect;
    this.source = rule;
    this.outcome = Object.freeze({ decision: rule.effect, rule: rule.id, code: null });
    this.tools = rule.tools ? new Set(rule.tools) : null;
    this.amountCurrency = rule.amount ? rule.amount.currency : null;
    this.amountBounds = rule.amount ? pickBounds(rule.amount as unknown as Record<string, unknown>) : null;
    this.conditions = (rule.when ?? []).map((c) => new CompiledCondition(c));
    // An allow needs every part true; deny and require_approval apply unless one part is false.
    this.strict = rule.effect === 'allow';
  }

  /** The amount condition on a call's amount (no amount, or another currency, is unknown). */
  amountResult(toolCurrency: string | undefined, amount: AmountReading): Tri {
    if (this.amountBounds === null) return TRUE;
    if (amount === undefined || amount === null || toolCurrency !== this.amountCurrency) return UNKNOWN;
    return satisfiesBounds(amount, this.amountBounds) ? TRUE : FALSE;
  }

  /** Does the rule apply to a call whose action and tool it already matches. */
  applies(toolCurrency: string | undefined, amount: AmountReading, args: unknown): boolean {
    const a = this.amountResult(toolCurrency, amount);
    if (a === FALSE || (this.strict && a === UNKNOWN)) return false;
    const conditions = this.conditions;
    for (let i = 0; i < conditions.length; i++) {
      const t = (conditions[i] as CompiledCondition).evaluate(args);
      if (t === FALSE || (this.strict && t === UNKNOWN)) return false;
    }
    return true;
  }
}

export class CompiledPolicy {
  readonly document: PolicyDocument;
  readonly rules: readonly CompiledRule[];
  readonly defaultOutcome: PolicyOutcome;
  private readonly exact = new Map<string, CompiledRule[]>();
  private readonly prefixed: { prefix: string; rule: CompiledRule }[] = [];
  private readonly everything: CompiledRule[] = [];
  private readonly memo = new Map<string, readonly CompiledRule[]>();

  constructor(document: PolicyDocument) {
    this.document = document;
    this.rules = document.rules.map((r, i) => new CompiledRule(r, i));
    this.defaultOutcome = Object.freeze({ decision: document.default as DefaultEffect, rule: null, code: 'DEFAULT' });
    for (const rule of this.rules) {
      for (const pattern of new Set(rule.source.actions)) {
        if (pattern === '*') this.everything.push(rule);
        else if (pattern.endsWith('.*')) this.prefixed.push({ prefix: pattern.slice(0, -1), rule });
        else {
          const list = this.exact.get(pattern);
          if (list) list.push(rule);
          else this.exact.set(pattern, [rule]);
        }
      }
    }
  }

  /** Rules one of whose patterns matches `action`, most restrictive first, then document order. */
  candidates(action: string): readonly CompiledRule[] {
    const cached = this.memo.get(action);
    if (cached) return cached;
    const found = new Set<CompiledRule>(this.exact.get(action));
    for (const rule of this.everything) found.add(rule);
    for (const { prefix, rule } of this.prefixed) {
      if (action.length > prefix.length && action.startsWith(prefix)) found.add(rule);
    }
    const list = [...found].sort((a, b) => RANK[b.effect] - RANK[a.effect] || a.index - b.index);
    if (this.memo.size >= MAX_MEMO) this.memo.clear();
    this.memo.set(action, list);
    return list;
  }

  /**
   * Decides one call: INVALID_TOOL_CONFIGURATION and INVALID_AMOUNT before any rule, then the first
   * candidate that applies, else the default.
   */
  decide(tool: CompiledTool, args: unknown): PolicyOutcome {
    if (!tool.valid) return INVALID_TOOL_OUTCOME;
    const amount = tool.readAmount(args);
    if (amount === INVALID_AMOUNT) return INVALID_AMOUNT_OUTCOME;
    const list = this.candidates(tool.action);
    for (let i = 0; i < list.length; i++) {
      const rule = list[i] as CompiledRule;
      if (rule.tools !== null && !rule.tools.has(tool.name)) continue;
      if (rule.applies(tool.currency, amount, args)) return rule.outcome;
    }
    return this.defaultOutcome;
  }
}

export const INVALID_AMOUNT_OUTCOME: PolicyOutcome = Object.freeze({ decision: 'deny', rule: null, code: 'INVALID_AMOUNT' });
export const INVALID_TOOL_OUTCOME: PolicyOutcome = Object.freeze({ decision: 'deny', rule: null, code: 'INVALID_TOOL_CONFIGURATION' });

export type CompileResult = { ok: true; policy: CompiledPolicy } | { ok: false; errors: ReturnType<typeof validatePolicy>['errors'] };

/**
 * Validates and compiles a document; an invalid document never compiles.
 *
 * @example
 * const r = compilePolicy(doc);
 * if (r.ok) r.policy.decide(compileTool(tool), { amount: '50' }); // { decision: 'allow', rule: 'refund-auto', code: null }
 */
export function compilePolicy(document: unknown): CompileResult {
  const result = validatePolicy(document);
  if (!result.valid) return { ok: false, errors: result.errors };
  // Never compile a number that is not stated exactly, whichever reader produced the value.
  const inexact = keptNumberPaths(document);
  if (inexact.length > 0) {
    return {
      ok: false,
      errors: inexact.map((path) => ({
        code: 'INEXACT_NUMBER',
        severity: 'error' as const,
        path,
        message: 'this number cannot be read exactly',
      })),
    };
  }
  return { ok: true, policy: new CompiledPolicy(document as PolicyDocument) };
}

/** Compiles a tool binding once, for many calls. */
export function compileTool(binding: ToolBinding): CompiledTool {
  return new CompiledTool(binding);
}
