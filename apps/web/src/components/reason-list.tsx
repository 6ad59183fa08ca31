// A plain list of an outcome's reasons (or widened subjects), named for screen readers and tests.
import type { ReactNode } from 'react';

export function ReasonList({
  items,
  label = 'Reasons',
  render,
}: {
  items: readonly string[];
  label?: string;
  render?: (item: string) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={label} className="outcome-reasons">
      {items.map((item) => (
        <li key={item}>{render ? render(item) : item}</li>
      ))}
    </ul>
  );
}
