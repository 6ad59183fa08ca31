// One recorded decision as a table row: when, which call, who, what (marked MCP when it came through the MCP
// gateway), the verdict, and why; below the rule, each shadowed rule file whose candidate would have answered
// otherwise (docs/review.md, "Shadow runs"); under the call, its receipt when asked (record-receipt.tsx).

import { RelativeTime } from '../../../components/relative-time.tsx';
import { ViaBadge } from '../../../components/via-badge.tsx';
import type { RecordedDecision, ShadowDifference } from '../api/get-decisions.ts';
import { RecordReceipt } from './record-receipt.tsx';

function ShadowDifferences({ differences }: { differences: ShadowDifference[] }) {
  return (
    <ul className="decision-shadows" aria-label="Shadow differences">
      {differences.map((d) => (
        <li key={`${d.document}:${d.rule ?? ''}`}>
          <span className="decision-shadow-document">{d.document}</span>
          {d.rule !== null && <span> · {d.rule}</span>}: {d.running} → {d.candidate}
        </li>
      ))}
    </ul>
  );
}

export function DecisionRow({ decision: d }: { decision: RecordedDecision }) {
  return (
    <tr>
      <td>
        <RelativeTime at={d.created_at} />
      </td>
      <td className="decision-call">
        {d.call_id}
        <RecordReceipt callId={d.call_id} />
      </td>
      <td>{d.agent}</td>
      <td>
        {d.tool}
        <ViaBadge via={d.via} />
        {d.arguments !== undefined && (
          <pre className="decision-args">{d.arguments === null ? 'arguments forgotten' : JSON.stringify(d.arguments, null, 2)}</pre>
        )}
      </td>
      <td>
        <span className={`badge badge-effect-${d.decision}`}>{d.decision}</span>
      </td>
      <td>
        {d.rule ?? d.code ?? '—'}
        {d.shadow_differences.length > 0 && <ShadowDifferences differences={d.shadow_differences} />}
      </td>
    </tr>
  );
}
