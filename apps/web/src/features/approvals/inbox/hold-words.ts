// The words the inbox says about a held call (docs/console.md, "Approvals inbox"): what it is ("issue_refund
// 205 USD for support-bot"), the threshold its amount crossed ("amount 205 USD > 100 USD, refund-approval"),
// how long ago and how soon ("12 min", "3 h 59 min"), and how many approvals it still needs.
import type { Approval } from '../api/types.ts';

/** The amount with its currency, or null without one. Example: `amountWords(a)` is `'205 USD'`. */
export function amountWords(approval: Pick<Approval, 'amount' | 'currency'>): string | null {
  return approval.amount === null ? null : `${approval.amount} ${approval.currency ?? ''}`.trim();
}

/** What the call is, as actions name it. Example: `'issue_refund 205 USD for support-bot'`. */
export function callWords(approval: Pick<Approval, 'tool' | 'agent' | 'amount' | 'currency'>): string {
  const amount = amountWords(approval);
  return `${approval.tool}${amount === null ? '' : ` ${amount}`} for ${approval.agent}`;
}

/** An amount rule's bounds as the engine explains them (docs/policy.md, "Amounts"). */
export interface ExplainedAmount {
  currency: string;
  bounds: { gt?: string; gte?: string; lt?: string; lte?: string };
}

const SIGN = { gt: '>', gte: '≥', lt: '<', lte: '≤' } as const;
const LOWER = ['gt', 'gte'] as const;
const UPPER = ['lt', 'lte'] as const;

/** The bounds among `names` as words. Example: `boundWords({ gt: '100' }, 'USD', LOWER)` is `['> 100 USD']`. */
function boundWords(bounds: ExplainedAmount['bounds'], currency: string, names: readonly (keyof typeof SIGN)[]): string[] {
  return names.filter((name) => bounds[name] !== undefined).map((name) => `${SIGN[name]} ${bounds[name]} ${currency}`);
}

/**
 * The threshold the call's amount crossed, in words, with the rule: the lower bounds the amount is above (the
 * upper ones when the rule has none). Null when the call has no amount or the rule no amount bounds.
 *
 * @example
 * thresholdWords({ amount: '205', currency: 'USD' }, 'refund-approval', { currency: 'USD', bounds: { gt: '100', lte: '1000' } })
 * // 'amount 205 USD > 100 USD, refund-approval'
 */
export function thresholdWords(
  approval: Pick<Approval, 'amount' | 'currency'>,
  rule: string | null,
  amount: ExplainedAmount | undefined,
): string | null {
  const words = amountWords(approval);
  if (words === null || amount === undefined) return null;
  const lower = boundWords(amount.bounds, amount.currency, LOWER);
  const crossed = lower.length > 0 ? lower : boundWords(amount.bounds, amount.currency, UPPER);
  if (crossed.length === 0) return null;
  return `amount ${words} ${crossed.join(' and ')}${rule === null ? '' : `, ${rule}`}`;
}

/** Every bound of the rule in words. Example: `'> 100 USD and ≤ 1000 USD'`. */
export function rangeWords(amount: ExplainedAmount): string {
  return [...boundWords(amount.bounds, amount.currency, LOWER), ...boundWords(amount.bounds, amount.currency, UPPER)].join(' and ');
}

/** A span of time in words, to the minute (seconds under one). Examples: `'45 s'`, `'12 min'`, `'3 h 59 min'`, `'2 d 4 h'`. */
export function spanWords(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

/** The quorum members the API may add to an approval (the lead's quorum work); absent until then. */
interface Quorum {
  quorum?: number;
  approvals_still_needed?: number;
}

/** How many approvals the call still needs: the API's count when it gives one, else one while pending. */
export function approvalsStillNeeded(approval: Approval): number {
  const counted = (approval as Approval & Quorum).approvals_still_needed;
  if (typeof counted === 'number') return counted;
  return approval.status === 'pending' ? 1 : 0;
}
