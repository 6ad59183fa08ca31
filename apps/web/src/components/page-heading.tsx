// The page's title: its only h1, naming the page and, when there is one, the thing on it ("Policy
// policies/refunds.policy.json"), with the focus target after a navigation (app/focus-heading.ts, tabIndex -1).
import type { ReactNode } from 'react';

interface PageHeadingProps {
  /** The element id, for the sections the heading names (`aria-labelledby`). */
  id?: string;
  /** What the page is: "Approvals", "Policy", "History of". */
  title: ReactNode;
  /** The thing on the page, set in monospace after the title: a document id, a rule set's name. */
  subject?: ReactNode;
  /** Beside the title: a status badge, a count. Part of the heading's name, so keep it short. */
  badge?: ReactNode;
  /** Under the title, outside the heading: a line of secondary facts (an id, a version). */
  children?: ReactNode;
}

/** Example: `<PageHeading title="Policy" subject="policies/refunds.policy.json" />` is the h1 "Policy policies/refunds.policy.json". */
export function PageHeading({ id, title, subject, badge, children }: PageHeadingProps) {
  return (
    <header className="page-heading">
      <h1 id={id} className="page-title" tabIndex={-1}>
        <span className="page-title-kind">{title}</span>
        {subject !== undefined && (
          <>
            {' '}
            <span className="page-title-subject">{subject}</span>
          </>
        )}
        {badge !== undefined && <> {badge}</>}
      </h1>
      {children !== undefined && <div className="page-heading-meta">{children}</div>}
    </header>
  );
}
