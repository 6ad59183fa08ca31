// A block of code or text that may scroll sideways: it takes focus, so a keyboard can scroll it (axe's
// scrollable-region-focusable, WCAG 2.1.1), and it is a named region a screen reader can find.
import type { ReactNode } from 'react';

interface ScrollPaneProps {
  /** What the pane shows, read as the region's name: "Colang", "Running text". */
  label: string;
  className?: string;
  children: ReactNode;
}

/** Example: `<ScrollPane label="Colang" className="document-text">{colang}</ScrollPane>`. */
export function ScrollPane({ label, className, children }: ScrollPaneProps) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a pane that scrolls must take focus to be scrolled by keys.
    // biome-ignore lint/a11y/useSemanticElements: the text's line breaks and spaces are the content, so it stays a pre.
    <pre className={className} tabIndex={0} role="region" aria-label={label}>
      {children}
    </pre>
  );
}
