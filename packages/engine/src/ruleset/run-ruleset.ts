// Running a rule set against one call (docs/rulesets.md, "Running a set"): every pinned rule judged in parallel, the
// set passing only if every rule passes, so its verdict is one pass or fail. A policy passes on allow and holds
// the call on require_approval (as the gate does); a rulebook passes on the tool check's allow and holds on a
// confirmation; a held rule did not pass, so it fails the set. A judge that throws or takes too long fails the
// whole run: the caller gets no partial result, and so records nothing.
import type { Code } from '../codes/index.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import { compileTool } from '../policy/compile.ts';
import { evaluatePolicy } from '../policy/evaluate.ts';
import type { Member } from '../policy/types.ts';
import type { Catalogue } from '../rulebook/catalogue.ts';
import type { SessionCall } from '../rulebook/check.ts';
import { layOverlay } from '../rulebook/overlay.ts';
import { checkTool, type ToolVerdict } from '../rulebook/tool-check.ts';
import type { CatalogueOverlay, Rulebook } from '../rulebook/types.ts';

/** One pinned rule, loaded: the version that runs and how it was chosen. */
export type LoadedRule = {
  rule_id: string;
  version_id: number;
  /**
   * True when the version is the pin's own; false when a host runs a rule at its running version. Every pin of
   * a stored set names its version (a pin written without one takes the running version when the set version
   * is made), so a set the API runs has only pinned rules.
   */
  pinned: boolean;
} & ({ kind: 'policy'; policy: CompiledPolicy } | { kind: 'sheet' | 'colang'; rulebook: Rulebook; overlay?: CatalogueOverlay });

export interface RulesetCall {
  tool: string;
  arguments: unknown;
  history?: readonly SessionCall[];
  contexts?: Record<string, unknown>;
  confirmed?: boolean;
}

/** One rule's own result: a held rule waits for a person (an approval, a confirmation). */
export type RuleOutcome = 'pass' | 'hold' | 'fail';
/** The set's verdict: one pass or fail (docs/rulesets.md). */
export type RulesetVerdict = 'pass' | 'fail';

/** One rule's own result. Summaries are sentences for people and never hold an argument value. */
export interface RuleResult {
  rule_id: string;
  version_id: number;
  pinned: boolean;
  kind: LoadedRule['kind'];
  result: RuleOutcome;
  decision: 'allow' | 'require_approval' | 'deny' | 'confirm' | 'refuse';
  code: Code | null;
  rule: string | null;
  summary: string;
}

export interface RulesetRun {
  verdict: RulesetVerdict;
  /** The rules that did not pass, in pin order: those that failed and those that hold. */
  failed: string[];
  /** Of those, the rules that hold the call for a person, in pin order. */
  held: string[];
  results: RuleResult[];
}

export interface RunOptions {
  catalogue: Catalogue;
  members?: readonly Member[];
  defaultApprovalTtlSeconds?: number;
  now?: Date;
  /** How long one rule may take before the whole run fails (default 10 s). */
  timeoutMs?: number;
  /** The judge of one rule; judgeRule unless a host wraps it. */
  judge?: (rule: LoadedRule, call: RulesetCall, options: RunOptions) => RuleResult | Promise<RuleResult>;
}

/** The whole run failed: a rule threw or gave no answer in time. Nothing of it may be recorded. */
export class RulesetRunError extends Error {
  readonly rule: string;
  readonly reason: 'threw' | 'timed_out';
  constructor(rule: string, reason: 'threw' | 'timed_out', message: string) {
    super(message);
    this.name = 'RulesetRunError';
    this.rule = rule;
    this.reason = reason;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Runs every rule against the call in parallel and combines their results: the set passes only if every rule
 * passes; a rule that fails or holds fails it. Rejects with RulesetRunError when any judge throws or times out.
 *
 * @example
 * await runRuleset([{ rule_id: 'policies/refunds.policy.json', version_id: 2, pinned: true, kind: 'policy', policy }],
 *   { tool: 'issue_refund', arguments: { amount: '50' } }, { catalogue })
 * // { verdict: 'pass', failed: [], held: [], results: [{ rule_id: 'policies/refunds.policy.json', result: 'pass', ... }] }
 * // and with { amount: '500' }, which the policy holds for approval:
 * // { verdict: 'fail', failed: ['policies/refunds.policy.json'], held: ['policies/refunds.policy.json'], results: [...] }
 */
export async function runRuleset(rules: readonly LoadedRule[], call: RulesetCall, options: RunOptions): Promise<RulesetRun> {
  const judge = options.judge ?? judgeRule;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const results = await Promise.all(rules.map((rule) => withTimeout(rule, timeoutMs, () => judge(rule, call, options))));
  const failed = results.filter((r) => r.result !== 'pass').map((r) => r.rule_id);
  const held = results.filter((r) => r.result === 'hold').map((r) => r.rule_id);
  const verdict: RulesetVerdict = failed.length === 0 ? 'pass' : 'fail';
  return { verdict, failed, held, results };
}

function withTimeout(rule: LoadedRule, ms: number, judge: () => RuleResult | Promise<RuleResult>): Promise<RuleResult> {
  const timedOut = () => new RulesetRunError(rule.rule_id, 'timed_out', `${rule.rule_id} gave no answer within ${ms} ms`);
  return new Promise<RuleResult>((resolve, reject) => {
    const started = performance.now();
    const timer = setTimeout(() => reject(timedOut()), ms);
    // Started on a later turn so a slow synchronous judge cannot hold up the others' start. An answer that
    // comes after the deadline (a synchronous judge the timer could not interrupt) is no answer either.
    Promise.resolve()
      .then(judge)
      .then(
        (result) => {
          clearTimeout(timer);
          if (performance.now() - started > ms) reject(timedOut());
          else resolve(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(
            error instanceof RulesetRunError
              ? error
              : new RulesetRunError(rule.rule_id, 'threw', `${rule.rule_id} could not be judged: ${errorMessage(error)}`),
          );
        },
      );
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Judges one rule: a policy through its compiled evaluator with the tool's amount mapping from the
 * catalogue, after the catalogue's own declarations (after, not_after, at_most, checks, a confirmation); a
 * rulebook through the tool check with its own overlay laid on the catalogue.
 *
 * @example
 * judgeRule(rule, { tool: 'issue_refund', arguments: { amount: '500' } }, { catalogue, members })
 * // { rule_id: 'policies/refunds.policy.json', result: 'hold', decision: 'require_approval', rule: 'refund-approval', ... }
 */
export function judgeRule(rule: LoadedRule, call: RulesetCall, options: RunOptions): RuleResult {
  const base = { rule_id: rule.rule_id, version_id: rule.version_id, pinned: rule.pinned, kind: rule.kind };
  if (rule.kind === 'policy') {
    const entry = options.catalogue.tools.find((t) => t.name === call.tool);
    if (entry === undefined) {
      return {
        ...base,
        result: 'fail',
        decision: 'deny',
        code: 'TOOL_UNKNOWN',
        rule: null,
        summary: `the catalogue holds no tool named ${call.tool}`,
      };
    }
    const tool = compileTool(
      entry.amount === undefined
        ? { name: entry.name, action: entry.action }
        : { name: entry.name, action: entry.action, amount: entry.amount },
    );
    if (!tool.valid) {
      return {
        ...base,
        result: 'fail',
        decision: 'deny',
        code: 'INVALID_TOOL_CONFIGURATION',
        rule: null,
        summary: `${entry.name}'s amount mapping is invalid`,
      };
    }
    // The catalogue's own declarations hold for a policy's call as for a rulebook's (the gate checks them for
    // every agent): a refusal fails the rule, a confirmation holds a call the policy would allow.
    const declared = checkCall(EMPTY_RULEBOOK, options.catalogue, call);
    if (declared.verdict === 'refuse') {
      return { ...base, result: 'fail', decision: 'refuse', code: declared.code, rule: declared.rule, summary: declared.reason };
    }
    const d = evaluatePolicy(rule.policy, tool, call.arguments, {
      members: options.members ?? [],
      defaultApprovalTtlSeconds: options.defaultApprovalTtlSeconds,
      now: options.now ?? new Date(),
    });
    if (d.decision === 'allow' && declared.verdict === 'confirm') return confirmation(base, call, declared);
    const result: RuleOutcome = d.decision === 'allow' ? 'pass' : d.decision === 'require_approval' ? 'hold' : 'fail';
    return { ...base, result, decision: d.decision, code: d.code, rule: d.rule, summary: d.explanation.summary };
  }
  const catalogue = rule.overlay ? layOverlay(options.catalogue, rule.overlay) : options.catalogue;
  const verdict = checkCall(rule.rulebook, catalogue, call);
  if (verdict.verdict === 'allow')
    return { ...base, result: 'pass', decision: 'allow', code: null, rule: null, summary: `${call.tool} is allowed` };
  if (verdict.verdict === 'confirm') return confirmation(base, call, verdict);
  return { ...base, result: 'fail', decision: 'refuse', code: verdict.code, rule: verdict.rule, summary: verdict.reason };
}

const EMPTY_RULEBOOK: Rulebook = { format: 'tollgate/rulebook@1', flows: [] };

function checkCall(rulebook: Rulebook, catalogue: Catalogue, call: RulesetCall): ToolVerdict {
  return checkTool({
    rulebook,
    catalogue,
    call: { tool: call.tool, arguments: call.arguments },
    contexts: call.contexts,
    history: call.history,
    confirmed: call.confirmed,
  });
}

function confirmation(
  base: Pick<RuleResult, 'rule_id' | 'version_id' | 'pinned' | 'kind'>,
  call: RulesetCall,
  verdict: Extract<ToolVerdict, { verdict: 'confirm' }>,
): RuleResult {
  return {
    ...base,
    result: 'hold',
    decision: 'confirm',
    code: 'CONFIRMATION_REQUIRED',
    rule: verdict.rule,
    summary: `${call.tool} needs a person's confirmation: ${verdict.confirmation}`,
  };
}
