// A tool's binding in words, as the catalogue page shows it beside the Authorize button.
import type { AmountMapping } from './types.ts';

/**
 * The action and amount mapping a person authorizes, in one line.
 *
 * @example
 * bindingText({ action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } })
 * // 'refund.issue, amount at /amount in USD'
 */
export function bindingText(tool: { action: string; amount?: AmountMapping | null | undefined }): string {
  const amount = tool.amount;
  if (!amount) return `${tool.action}, no amount`;
  const currency = amount.currency_pointer === undefined ? '' : ` (currency at ${amount.currency_pointer})`;
  return `${tool.action}, amount at ${amount.pointer} in ${amount.currency}${currency}`;
}
