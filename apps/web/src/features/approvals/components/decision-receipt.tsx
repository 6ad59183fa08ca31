// After a decision: what was decided, whether its signature verifies in this browser against the decider's
// custodial public key, or the passkey or device key that signed it (and the key's fingerprint), with the raw
// signature behind a disclosure.

import type { Approval } from '../api/types.ts';
import { useReceiptCheck } from '../api/use-receipt-check.ts';

/** How the key that signed is named: the custodial key (no proof) is "key", as before member-held keys. */
const keyWords = (kind: string | undefined) => (kind === 'passkey' ? 'passkey' : kind === 'device' ? 'device key' : 'key');

export function DecisionReceipt({ approval, onDismiss }: { approval: Approval; onDismiss: () => void }) {
  const check = useReceiptCheck(approval);
  const signer = approval.decided_by_name ?? approval.decided_by ?? 'nobody';
  const held = keyWords(approval.proof?.kind);
  return (
    <section className={check.data?.verified === false ? 'receipt receipt-unverified' : 'receipt'} aria-label="Signed decision">
      <p>
        <strong>{approval.status === 'approved' ? 'Approved' : 'Denied'}</strong> {approval.agent} · <code>{approval.tool}</code> · call{' '}
        <code>{approval.call_id}</code>
      </p>
      {check.data === undefined ? (
        <p className="receipt-check">Checking the signature…</p>
      ) : check.data.verified ? (
        <p className="receipt-check receipt-verified">
          Signature verified — signed by {signer} with {held} <code>{check.data.fingerprint}</code>
        </p>
      ) : (
        <p className="receipt-check receipt-failed">
          Signature NOT verified: {check.data.reason}. Do not rely on this decision until it is checked.
        </p>
      )}
      <details className="receipt-raw">
        <summary>Raw signature</summary>
        <figure className="code-figure" aria-label="Signature">
          <pre className="signature">{approval.signature}</pre>
        </figure>
      </details>
      <button type="button" className="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}
