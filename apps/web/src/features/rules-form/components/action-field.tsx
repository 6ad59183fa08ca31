// The rule's action: picked from the catalogue's tools, or typed when there is no catalogue.
import type { LintCatalogue } from '@tollgate/engine';
import { useEffect, useRef, useState } from 'react';
import { DraftInput } from './draft-input.tsx';

interface ActionFieldProps {
  id: string;
  value: string;
  catalogue: LintCatalogue | undefined;
  onValue: (action: string) => void;
}

export function ActionField({ id, value, catalogue, onValue }: ActionFieldProps) {
  const listed = useListedWhenNeeded();
  if (catalogue === undefined) return <DraftInput id={id} value={value} onValue={onValue} spellCheck={false} required />;
  const tool = catalogue.tools.find((t) => t.name === value);
  return (
    <select
      id={id}
      ref={listed.ref}
      className="input"
      value={value}
      onChange={(event) => onValue(event.target.value)}
      onFocus={listed.show}
      onPointerDown={listed.show}
    >
      {/* An action the catalogue lacks stays pickable, so the select never hides what the sheet says. */}
      {tool === undefined && <option value={value}>{value === '' ? '(no action)' : `${value} (not in the catalogue)`}</option>}
      {listed.shown
        ? catalogue.tools.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name} ({t.kind})
            </option>
          ))
        : tool !== undefined && (
            <option value={tool.name}>
              {tool.name} ({tool.kind})
            </option>
          )}
    </select>
  );
}

/**
 * Whether the select lists every tool yet: from when it comes near the screen, is focused or is pressed.
 * A 200-rule sheet over a 300-tool catalogue would otherwise put 60,000 options in the page at once (about
 * five seconds to open the Rules page); a select out of view shows only its own value, which reads the same.
 */
function useListedWhenNeeded() {
  const ref = useRef<HTMLSelectElement>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (shown || element === null) return;
    if (typeof IntersectionObserver === 'undefined') {
      setShown(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setShown(true);
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);
  return { ref, shown, show: () => setShown(true) };
}
