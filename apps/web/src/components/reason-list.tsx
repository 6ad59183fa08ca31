// A plain list of an outcome's reasons (or widened subjects), named for screen readers and tests. A reason
// is the one Diagnostic (docs/documents.md, "Codes"): shown as `line L:C: CODE: message`, or `CODE: message` unplaced.
import type { ReactNode } from 'react';

/** A reason as the API answers it: a Diagnostic, or a plain line (widened subjects). */
export type ReasonItem = string | { code: string; message: string; line?: number; column?: number };

/** One reason as a line of text. */
export function reasonText(item: ReasonItem): string {
  if (typeof item === 'string') return item;
  const at = item.line === undefined ? '' : `line ${item.line}:${item.column ?? 1}: `;
  return `${at}${item.code}: ${item.message}`;
}

export function ReasonList({
  items,
  label = 'Reasons',
  render,
}: {
  items: readonly ReasonItem[];
  label?: string;
  render?: (item: string) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={label} className="outcome-reasons">
      {items.map(reasonText).map((item, i) => (
        <li key={`${i}:${item}`}>{render ? render(item) : item}</li>
      ))}
    </ul>
  );
}
