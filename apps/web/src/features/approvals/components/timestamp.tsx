// A moment as people read it (their locale and zone), with the exact ISO timestamp in datetime and title.

/** Example: `<Timestamp iso="2026-04-01T09:00:00.000Z" />` shows "4/1/2026, 11:00:00 AM" in Paris. */
export function Timestamp({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {new Date(iso).toLocaleString()}
    </time>
  );
}
