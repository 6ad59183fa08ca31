// The one-line verdict: valid with its revision, or how many problems there are.
import type { PolicyStatus } from '../check-policy.ts';

export function PolicyStatusLine({ status }: { status: PolicyStatus }) {
  return (
    <p className={`status ${status.valid ? 'status-valid' : 'status-invalid'}`} role="status">
      <span className="status-dot" aria-hidden="true" />
      {status.text}
    </p>
  );
}
