// Why the selected call was held, in words (docs/console.md, "Approvals inbox"): the rule and the threshold its
// amount crossed ("amount 205 USD > 100 USD, refund-approval"), what is missing for it to run (approvals, and from
// whom), and what the candidate version under trial would decide. From GET /v1/approvals/{id}'s explanation.
import type { ApprovalRead } from '../api/get-approval.ts';
import { approvalsStillNeeded, type ExplainedAmount, rangeWords, thresholdWords } from './hold-words.ts';

/** The parts of the engine's explanation the inbox reads (docs/policy.md); the rest is left alone. */
interface ExplainedRule {
  id?: string;
  description?: string;
  amount?: ExplainedAmount;
  conditions?: { path: string; operator: string; operand: unknown }[];
}

/** Names as a sentence's choice. Example: `anyOf(['olivia', 'adam', 'april'])` is `'olivia, adam, or april'`. */
const anyOf = (names: string[]) => new Intl.ListFormat('en', { type: 'disjunction' }).format(names);

const DECISION_WORDS: Record<string, string> = { allow: 'allow it', deny: 'deny it', require_approval: 'hold it for approval too' };

export function HoldExplained({ approval }: { approval: ApprovalRead }) {
  const explained = approval.explanation;
  const rule = (explained?.explanation.rule ?? null) as ExplainedRule | null;
  const threshold = thresholdWords(approval, approval.rule, rule?.amount);
  const needed = approvalsStillNeeded(approval);
  const summary = typeof explained?.explanation.summary === 'string' ? explained.explanation.summary : null;
  return (
    <section className="hold-explained" aria-labelledby="hold-explained-heading">
      <h3 id="hold-explained-heading">Why it was held</h3>
      <ul>
        <li>
          {threshold !== null ? (
            <>
              Held because <strong className="hold-threshold">{threshold}</strong>
            </>
          ) : (
            <>
              Held by <code>{approval.rule ?? 'the policy'}</code>
              {summary !== null && <span className="muted"> ({summary})</span>}
            </>
          )}{' '}
          of {approval.policy_document} v{approval.policy_sequence}.
          {rule?.amount && <span className="muted"> The rule holds amounts {rangeWords(rule.amount)}.</span>}
        </li>
        {rule?.description && <li>The rule: {rule.description}</li>}
        {(rule?.conditions ?? []).length > 0 && (
          <li>Its conditions: {(rule?.conditions ?? []).map((c) => `${c.path} ${c.operator} ${JSON.stringify(c.operand)}`).join('; ')}</li>
        )}
        {approval.status === 'pending' && (
          <li>
            To run, it needs {needed === 1 ? 'one approval' : `${needed} more approvals`}
            {approval.eligible_approvers.length > 0
              ? ` from ${anyOf(approval.eligible_approvers.map((m) => m.name))}.`
              : ', and no member can approve it now.'}
          </li>
        )}
        {explained?.trial && (
          <li>
            Under trial, candidate v{explained.trial.candidate} would {DECISION_WORDS[explained.trial.decision] ?? explained.trial.decision}
            {explained.trial.rule !== null && (
              <>
                {' '}
                (<code>{explained.trial.rule}</code>)
              </>
            )}
            .
          </li>
        )}
        {explained === null && <li className="muted">The full explanation is not available: the call's arguments are no longer kept.</li>}
      </ul>
    </section>
  );
}
