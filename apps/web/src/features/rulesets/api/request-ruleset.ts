// A rule-set refusal's details name the rules at fault ("each naming every rule at fault", docs/rulesets.md),
// which the page shows.

/** The rule ids an error's details name. Example: `rulesOf({rules: ['a']})` is `['a']`. */
export function rulesOf(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('rules' in details)) return [];
  const rules = (details as { rules: unknown }).rules;
  return Array.isArray(rules) ? rules.filter((r): r is string => typeof r === 'string') : [];
}
