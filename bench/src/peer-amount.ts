// How the peers (Cedar, Cerbos) are given a call's amount. policy@1 compares exact decimals of up to 18
// fractional digits and any size; Cedar's decimal holds four fractional digits within ±922337203685477,
// and Cerbos's attributes are JSON numbers (doubles). So the harness cuts an amount to four fractional
// digits and holds it below 10 billion, and says whether it cut anything: with that flag every
// comparison against a threshold of at most four fractional digits below the hold stays exact
// (bench/peers/cedar/refunds.cedar states the two rewrites). An amount policy@1 cannot read at all is
// not given to a peer: the harness decides it as policy@1 does (INVALID_AMOUNT, deny) and counts it.
import type { ToolBinding } from '@tollgate/engine/policy';

/** What a peer is told about a call's amount. */
export type PeerAmount =
  | { kind: 'none' }
  | { kind: 'unreadable' }
  | {
      kind: 'amount';
      /** Cedar's form: digits, a point, four fractional digits ("1000.0500"). */
      decimal: string;
      /** The same in ten-thousandths, an integer a double states exactly (below 2^53). */
      units: number;
      /** True when the exact amount is above `decimal` (digits were cut or the amount was held). */
      cut: boolean;
    };

const READABLE = /^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/;
/**
 * An amount of 10 billion or more is held just below 10 billion with `cut` set: it is above the held
 * value, as it is above every threshold the peer policies state (all far below it).
 */
const HOLD_DIGITS = 11;
const HELD: PeerAmount = { kind: 'amount', decimal: '9999999999.9999', units: 99_999_999_999_999, cut: true };

/** Reads the amount of `tool`'s mapping from `args` the way policy@1 does, in a form a peer can state. */
export function peerAmount(tool: ToolBinding, args: unknown): PeerAmount {
  const mapping = tool.amount;
  if (!mapping) return { kind: 'none' };
  if (mapping.currency_pointer !== undefined) throw new Error('peerAmount: currency pointers are not part of the peers stream');
  let value: unknown = args;
  for (const raw of mapping.pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, token)) return { kind: 'none' };
    value = (value as Record<string, unknown>)[token];
  }
  let text: string;
  if (typeof value === 'string' && READABLE.test(value)) text = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) text = String(value);
  else return { kind: 'unreadable' };
  const [whole = '0', fraction = ''] = text.split('.');
  if (whole.length >= HOLD_DIGITS) return HELD;
  const kept = fraction.slice(0, 4).padEnd(4, '0');
  const cut = /[1-9]/.test(fraction.slice(4));
  return { kind: 'amount', decimal: `${whole}.${kept}`, units: Number(whole) * 10_000 + Number(kept), cut };
}
