// The language revision of a document: 1; 2 with any description or guard; 3 with any when list.

/** Computes the revision from whatever rules are readable, so an editor can show it while typing. */
export function policyRevision(document: unknown): 1 | 2 | 3 {
  const rules = (document as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return 1;
  let revision: 1 | 2 | 3 = 1;
  for (const rule of rules) {
    if (rule === null || typeof rule !== 'object') continue;
    if ('when' in rule) return 3;
    if ('description' in rule || 'guard' in rule) revision = 2;
  }
  return revision;
}
