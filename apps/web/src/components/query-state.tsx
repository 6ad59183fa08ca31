// Shared loading, empty and error states, so every page says the same thing the same way.
import type { ReactNode } from 'react';

export function Loading({ label }: { label: string }) {
  return <p className="state state-loading">{label}…</p>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

export function ErrorNotice({ error }: { error: Error }) {
  return (
    <p className="state state-error" role="alert">
      {error.message}
    </p>
  );
}
