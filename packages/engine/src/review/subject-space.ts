// The calls one tool can make, cut into pieces on which every policy version given decides alike: the
// amount axis at every threshold of the rules that reach the tool, "no amount", and the argument space of
// their conditions. Each piece comes with a witness call (docs/review.md, "Regions").
import { TRUE, UNKNOWN } from '../conditions/tri.ts';
import type { CompiledPolicy, CompiledRule } from '../policy/compile.ts';
import { CompiledTool, NO_AMOUNT } from '../policy/tool.ts';
import type { ToolBinding } from '../policy/types.ts';
import { parsePointer } from '../source/json-pointer.ts';
import { type ArgumentSpace, argumentSpace, setAt } from './argument-space.ts';
import { cutAxis, type Interval } from './axis.ts';

/** A piece of the amount axis with its witness amount, or null for a call without an amount. */
export type AmountSlot = { interval: Interval; witness: string } | null;

/** One amount slot and the argument space of the rules that can still apply in it. */
export interface Piece {
  amount: AmountSlot;
  space: ArgumentSpace;
  /** Ids of the rules, in any version, that can apply in the slot and test the arguments. */
  conditionRules: string[];
}

export interface SubjectSpace {
  tool: ToolBinding;
  compiled: CompiledTool;
  pieces: Piece[];
  /** Whether the tool reads amounts and a rule that reaches it tests them (else one slot: any amount). */
  amountMatters: boolean;
}

/** The rules of a version that can decide a call of the tool, in the order the evaluator tries them. */
export function reachingRules(policy: CompiledPolicy, tool: CompiledTool): CompiledRule[] {
  return policy.candidates(tool.action).filter((r) => r.tools === null || r.tools.has(tool.name));
}

/** The pieces of a tool's calls under every version given. */
export function subjectSpace(tool: ToolBinding, policies: readonly CompiledPolicy[]): SubjectSpace {
  const compiled = new CompiledTool(tool);
  const rules = policies.flatMap((p) => reachingRules(p, compiled));
  const thresholds: string[] = [];
  for (const r of rules) {
    if (r.amountBounds === null || r.amountCurrency !== compiled.currency) continue;
    for (const v of Object.values(r.amountBounds)) if (v !== undefined) thresholds.push(v);
  }
  // A rule with an amount condition in another currency finds every call's amount unknown, present or
  // not (fail closed): only rules in the tool's own currency tell amounts apart.
  const amountMatters = compiled.valid && compiled.currency !== undefined && rules.some((r) => r.amountCurrency === compiled.currency);
  const slots: AmountSlot[] = amountMatters ? [...cutAxis(thresholds, '0'), null] : [null];
  const reserved =
    compiled.valid && tool.amount ? [tool.amount.pointer, ...(tool.amount.currency_pointer ? [tool.amount.currency_pointer] : [])] : [];
  const spaces = new Map<string, Omit<Piece, 'amount'>>();
  const pieces = slots.map((amount): Piece => {
    // A rule whose amount condition cannot hold in the slot never applies there: its conditions decide nothing.
    const live = rules.filter((r) => r.conditions.length > 0 && canApply(r, compiled, amount));
    const key = live.map((r) => rules.indexOf(r)).join(',');
    let found = spaces.get(key);
    if (!found) {
      const space = argumentSpace(
        live.flatMap((r) => r.source.when ?? []),
        reserved,
      );
      found = { space, conditionRules: [...new Set(live.map((r) => r.id))] };
      spaces.set(key, found);
    }
    return { amount, ...found };
  });
  return { tool, compiled, pieces, amountMatters };
}

/** Whether the rule's amount condition lets it apply to calls of the slot (an allow needs it true). */
function canApply(rule: CompiledRule, tool: CompiledTool, slot: AmountSlot): boolean {
  const result = rule.amountResult(tool.currency, slot === null ? NO_AMOUNT : slot.witness);
  return result === TRUE || (result === UNKNOWN && rule.effect !== 'allow');
}

/**
 * The witness call of one piece: the argument classes' values, the amount at the tool's pointer and the
 * tool's currency at its currency pointer. Undefined when the tool would not read the intended amount.
 */
export function witnessArguments(subject: SubjectSpace, piece: Piece, combo: readonly number[]): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  const slot = piece.amount;
  if (piece.space.complete) {
    piece.space.paths.forEach((p, i) => {
      const cls = p.classes[combo[i] as number];
      if (cls && !cls.missing) setAt(args, p.tokens, cls.value);
    });
  }
  const mapping = subject.compiled.valid ? subject.tool.amount : undefined;
  if (mapping) {
    if (mapping.currency_pointer !== undefined) setAt(args, parsePointer(mapping.currency_pointer) ?? [], mapping.currency);
    if (slot !== null) setAt(args, parsePointer(mapping.pointer) ?? [], slot.witness);
  }
  const read = subject.compiled.readAmount(args);
  return read === (slot === null ? NO_AMOUNT : slot.witness) ? args : undefined;
}
