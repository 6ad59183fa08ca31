// An instant as the tables show it: local date and time, with the exact instant kept in the element.

export function When({ at, none = '—' }: { at: string | null; none?: string }) {
  if (at === null) return <>{none}</>;
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
}
