// One-line summaries of a call's arguments for the results table.
import type { RecordedDecision } from './types.ts';

const MAX_LENGTH = 80;

/** Compact JSON, cut at 80 characters. Example: `summariseArguments({amount: '50'})` is `{"amount":"50"}`. */
export function summariseArguments(args: Record<string, unknown> | null | undefined): string {
  if (args === undefined) return 'arguments not shown';
  if (args === null) return 'arguments unknown';
  const text = JSON.stringify(args);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}

/** A recorded call: its amount and currency, then its arguments when they were read and kept. */
export function summariseRecorded(decision: Pick<RecordedDecision, 'call_id' | 'amount' | 'currency' | 'arguments'>): string {
  const amount = decision.amount === null ? null : `${decision.amount} ${decision.currency ?? ''}`.trim();
  const args = decision.arguments === undefined ? null : summariseArguments(decision.arguments);
  const parts = [amount, args].filter((p): p is string => p !== null);
  return parts.length === 0 ? 'arguments not shown' : parts.join(' · ');
}

/** An example: its name, then its arguments. Example: `summariseExample({name: 'small', arguments: {amount: '5'}})` is `small · {"amount":"5"}`. */
export function summariseExample(example: { name: string; arguments: Record<string, unknown> | null }): string {
  return `${example.name} · ${summariseArguments(example.arguments)}`;
}
