// The three amount rules of a money action (deny over the upper limit, approval between, allow up to the
// lower), their notes, and example calls on every side of both limits.
import type { ApproverRole, PolicyRule } from '../types.ts';
import { justOver, stepAbove, stepBelow } from './decimal-steps.ts';
import { describeRoles, describeSeconds } from './describe.ts';
import type { SuiteBuilder } from './suite-builder.ts';

/** A money action with two limits: allow up to `lower`, approval up to `upper`, deny above. */
export interface AmountLadder {
  /** The rule ids' stem: `refund` gives refund-over-limit, refund-approval, refund-auto. */
  stem: string;
  /** What one call is, for notes and example names: "refund". */
  noun: string;
  action: string;
  tool: string;
  currency: string;
  lower: string;
  upper: string;
  roles: ApproverRole[];
  ttl: number;
  /** Arguments every example call carries besides the amount. */
  args: Record<string, unknown>;
}

/** The ladder's rules, strictest first, as every template lists an action's amount rules. */
export function ladderRules(l: AmountLadder): PolicyRule[] {
  return [
    { id: `${l.stem}-over-limit`, actions: [l.action], amount: { currency: l.currency, gt: l.upper }, effect: 'deny' },
    {
      id: `${l.stem}-approval`,
      actions: [l.action],
      amount: { currency: l.currency, gt: l.lower, lte: l.upper },
      effect: 'require_approval',
      approvers: { roles: [...l.roles] },
      approval_ttl_seconds: l.ttl,
    },
    { id: `${l.stem}-auto`, actions: [l.action], amount: { currency: l.currency, lte: l.lower }, effect: 'allow' },
  ];
}

/** One line per ladder rule. */
export function ladderNotes(l: AmountLadder): Record<string, string> {
  const c = l.currency;
  const noun = `${l.noun}s`;
  return {
    [`${l.stem}-over-limit`]: `Denies ${noun} over ${l.upper} ${c}, and ${noun} whose amount cannot be read in ${c} (fail closed).`,
    [`${l.stem}-approval`]: `Holds ${noun} over ${l.lower} ${c} up to ${l.upper} ${c} for approval by ${describeRoles(l.roles)}; a request stays open ${describeSeconds(l.ttl)}.`,
    [`${l.stem}-auto`]: `Allows ${noun} up to ${l.lower} ${c} without a person.`,
  };
}

/** Example calls below, at and above each limit, without an amount, and with a malformed amount. */
export function ladderExamples(l: AmountLadder, suite: SuiteBuilder): void {
  const tool = suite.tool(l.tool, l.action, { pointer: '/amount', currency: l.currency });
  const over = `${l.stem}-over-limit`;
  const approval = `${l.stem}-approval`;
  const auto = `${l.stem}-auto`;
  const at = (amount: string): Record<string, unknown> => ({ ...l.args, amount });
  const a = `a ${l.noun}`;
  const below = stepBelow(l.lower);
  if (below !== undefined) suite.call(`${a} of ${below} ${l.currency}, below the automatic limit`, tool, at(below), 'allow', auto);
  suite.call(`${a} of exactly the automatic limit, ${l.lower} ${l.currency}`, tool, at(l.lower), 'allow', auto);
  const between = stepAbove(l.lower, l.upper);
  if (between !== undefined) {
    suite.call(`${a} of ${between} ${l.currency}, just over the automatic limit`, tool, at(between), 'require_approval', approval);
  }
  suite.call(`${a} of exactly the approval limit, ${l.upper} ${l.currency}`, tool, at(l.upper), 'require_approval', approval);
  const above = justOver(l.upper);
  suite.call(`${a} of ${above} ${l.currency}, just over the approval limit`, tool, at(above), 'deny', over);
  suite.call(`${a} without an amount (fail closed)`, tool, { ...l.args }, 'deny', over);
  suite.refusal(`${a} with a malformed amount "-5"`, tool, at('-5'), 'INVALID_AMOUNT');
}
