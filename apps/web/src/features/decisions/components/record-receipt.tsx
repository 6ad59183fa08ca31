// A decision's receipt on its row (docs/console.md, "Decisions"; docs/audit.md, "Receipts"): asked for with a
// button, it shows where the record holds the decision and when the checkpoint over it was signed, and offers the
// receipt as a JSON file for `tollgate audit verify-receipt`.
import { useEffect, useMemo, useState } from 'react';
import { ErrorNotice } from '../../../components/query-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { type DecisionReceipt, useReceipt } from '../api/get-receipt.ts';

/** The receipt as a downloadable file's URL, revoked when it changes or the row goes. */
function useFileUrl(receipt: DecisionReceipt | undefined): string | undefined {
  const url = useMemo(
    () => (receipt ? URL.createObjectURL(new Blob([`${JSON.stringify(receipt, null, 2)}\n`], { type: 'application/json' })) : undefined),
    [receipt],
  );
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function ReceiptSummary({ receipt, url }: { receipt: DecisionReceipt; url: string | undefined }) {
  const { decision } = receipt;
  const checkpoint = receipt.checkpoints.find((c) => c.writer === decision.writer && c.seq >= decision.seq);
  return (
    <div className="decision-receipt">
      <p>
        Entry {decision.seq} of writer <code title={decision.writer}>{decision.writer.slice(0, 8)}</code>
        {receipt.approvals.length > 0 && `, with ${receipt.approvals.length} approval entries`}
      </p>
      <p>
        {checkpoint ? (
          <>
            Checkpoint at entry {checkpoint.seq}, signed <RelativeTime at={checkpoint.at} />
          </>
        ) : (
          'No checkpoint covers it yet: ask again later.'
        )}
      </p>
      {url && (
        <a className="button" href={url} download={`receipt-${receipt.call_id}.json`}>
          Download receipt
        </a>
      )}
    </div>
  );
}

export function RecordReceipt({ callId }: { callId: string }) {
  const [asked, setAsked] = useState(false);
  const receipt = useReceipt(callId, asked);
  const url = useFileUrl(receipt.data);
  if (!asked)
    return (
      <button type="button" className="button decision-receipt-button" onClick={() => setAsked(true)}>
        Receipt
      </button>
    );
  if (receipt.isPending) return <p className="decision-receipt">Loading the receipt…</p>;
  if (receipt.isError) return <ErrorNotice error={receipt.error} />;
  return <ReceiptSummary receipt={receipt.data} url={url} />;
}
