// After a decision: what was decided and its Ed25519 signature over the signed content.
import type { Approval } from '../api/types.ts';

export function DecisionReceipt({ approval, onDismiss }: { approval: Approval; onDismiss: () => void }) {
  return (
    <section className="receipt" aria-label="Signed decision">
      <p>
        <strong>{approval.status === 'approved' ? 'Approved' : 'Denied'}</strong> {approval.agent} · <code>{approval.tool}</code>, signed:
      </p>
      <figure className="code-figure" aria-label="Signature">
        <pre className="signature">{approval.signature}</pre>
      </figure>
      <button type="button" className="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}
