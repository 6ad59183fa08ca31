// The language revision of a document: 1; 2 with any description or guard; 3 with any when list; 4 with any
// approvers quorum.

export type PolicyRevision = 1 | 2 | 3 | 4;

/** Computes the revision from whatever rules are readable, so an editor can show it while typing. */
export function policyRevision(document: unknown): PolicyRevision {
  const rules = (document as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return 1;
  let revision: PolicyRevision = 1;
  for (const rule of rules) {
    if (rule === null || typeof rule !== 'object') continue;
    const approvers = (rule as { approvers?: unknown }).approvers;
    if (approvers !== null && typeof approvers === 'object' && 'quorum' in approvers) return 4;
    if ('when' in rule) revision = 3;
    else if (revision < 3 && ('description' in rule || 'guard' in rule)) revision = 2;
  }
  return revision;
}
