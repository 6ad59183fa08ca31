// A block that may scroll: it takes focus, so a keyboard can scroll it (axe's scrollable-region-focusable,
// WCAG 2.1.1), and it is a named region a screen reader can find. A pre for code and text, a div for a wide table.
import type { ReactNode } from 'react';

interface ScrollPaneProps {
  /** What the pane shows, read as the region's name: "Colang", "Running text". */
  label: string;
  className?: string;
  /** `div` for a pane around a table; a pre otherwise. */
  as?: 'pre' | 'div';
  children: ReactNode;
}

/** Example: `<ScrollPane label="Colang" className="document-text">{colang}</ScrollPane>`. */
export function ScrollPane({ label, className, as: Element = 'pre', children }: ScrollPaneProps) {
  return (
    <Element className={className} tabIndex={0} role="region" aria-label={label}>
      {children}
    </Element>
  );
}
