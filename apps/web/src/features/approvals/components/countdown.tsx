// Time left before a request expires, ticking every second.
import { useNow } from '../../../hooks/use-now.ts';

/** "3h 59m 12s" from milliseconds. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}h ${m}m ${s}s` : m > 0 ? `${m}m ${s}s` : `${s}s`;
}

export function Countdown({ expiresAt }: { expiresAt: string }) {
  const now = useNow();
  const left = Date.parse(expiresAt) - now;
  return (
    <time className={left <= 0 ? 'countdown countdown-over' : 'countdown'} dateTime={expiresAt}>
      {left <= 0 ? 'expired' : `expires in ${formatRemaining(left)}`}
    </time>
  );
}
