// A tab list as the WAI-ARIA tabs pattern has it: one tab in the Tab order (roving tabindex), Left/Right move
// between the tabs (wrapping), Home/End go to the first and last, and selection follows focus. The inbox's
// Pending/Decided and a document's views use it (docs/console.md, "Keyboard").
import { type KeyboardEvent, useRef } from 'react';

export interface Tab<T extends string> {
  id: T;
  label: string;
}

/** The tab a key moves to from `index` among `count` tabs, or null for any other key. `tabAfterKey('End', 0, 2)` is 1. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  const last = count - 1;
  if (key === 'ArrowRight') return index === last ? 0 : index + 1;
  if (key === 'ArrowLeft') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

/** The id of a tab's element, for its panel's aria-labelledby. */
export const tabElementId = (idPrefix: string, tab: string) => `${idPrefix}-tab-${tab}`;

export function TabList<T extends string>({
  label,
  idPrefix,
  panelId,
  tabs,
  tab,
  onTab,
}: {
  label: string;
  idPrefix: string;
  panelId: string;
  tabs: readonly Tab<T>[];
  tab: T;
  onTab: (tab: T) => void;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabAfterKey(
      event.key,
      tabs.findIndex((t) => t.id === tab),
      tabs.length,
    );
    const target = next === null ? undefined : tabs[next];
    if (next === null || target === undefined) return;
    event.preventDefault();
    onTab(target.id);
    buttons.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((t, i) => (
        <button
          key={t.id}
          ref={(element) => {
            buttons.current[i] = element;
          }}
          type="button"
          role="tab"
          id={tabElementId(idPrefix, t.id)}
          aria-selected={t.id === tab}
          aria-controls={panelId}
          tabIndex={t.id === tab ? 0 : -1}
          className={t.id === tab ? 'tab tab-selected' : 'tab'}
          onClick={() => onTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
