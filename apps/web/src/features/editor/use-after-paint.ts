// A value that follows another one frame late, so a costly part of the page updates after a cheap,
// urgent one has been painted (the compiled panes of a 200-rule sheet after the editor's markers).
import { useEffect, useState } from 'react';

/**
 * `value`, updated only after the browser has painted the frame in which it changed.
 *
 * @example
 * const outputs = useAfterPaint(check?.outputs); // the markers of this check are drawn first
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // rAF runs before this frame's paint; the timeout it starts runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown(value), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [value, shown]);
  return shown;
}
