// A time as the console shows it: relative words ("3 minutes ago") in a <time>, its exact instant in `dateTime` and,
// in the reader's locale, in `title` (docs/console.md, "Times").
import { useSyncExternalStore } from 'react';
import { absoluteWords, relativeWords } from '../lib/relative-time.ts';
import { clockNow, subscribeClock } from '../lib/shared-clock.ts';

interface RelativeTimeProps {
  /** An ISO 8601 instant, as the API answers them. */
  at: string;
  className?: string;
}

/**
 * Example: `<RelativeTime at="2026-03-01T09:00:00Z" />` shows "2 minutes ago" with the title "1 Mar 2026, 09:00:00 UTC".
 * It re-renders only when its words change: the snapshot is the words, so a tick that leaves them alone renders nothing.
 */
export function RelativeTime({ at, className }: RelativeTimeProps) {
  const instant = Date.parse(at);
  const words = useSyncExternalStore(subscribeClock, () => (Number.isNaN(instant) ? at : relativeWords(instant, clockNow())));
  if (Number.isNaN(instant)) return <span className={className}>{at}</span>;
  return (
    <time className={className === undefined ? 'relative-time' : `relative-time ${className}`} dateTime={at} title={absoluteWords(instant)}>
      {words}
    </time>
  );
}

/** A time that may be absent (a key never used): `none` in its place. Example: `<MaybeRelativeTime at={null} none="never" />`. */
export function MaybeRelativeTime({ at, none = '—', className }: { at: string | null; none?: string; className?: string }) {
  if (at === null) return <>{none}</>;
  return <RelativeTime at={at} className={className} />;
}
