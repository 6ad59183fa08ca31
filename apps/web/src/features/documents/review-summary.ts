// The one summary a review page gives of a change (docs/console.md, "Reviewing a change"): its direction, how many
// tools and regions of calls change decision, and each change once, read from the impact preview's answer.
import type { DecisionDiffEntry, ImpactPreview } from './api/types.ts';
import { outcomeWords } from './review-words.ts';

/** What a preview changes, each thing once: a tool in two catalogues is one tool, a region said twice one region. */
export interface PreviewChanges {
  /** The tools some call of which changes decision (or may), in the order first met. */
  tools: string[];
  /** Every change, the first of each sentence. */
  entries: DecisionDiffEntry[];
  /** The catalogue tools no call of which changes. */
  unchanged: string[];
}

/**
 * The changes of a preview over all its catalogues, without repeats.
 *
 * @example
 * previewChanges(preview).entries.map((e) => e.words)
 * // ['issue_refund (refund.issue), amount in (100, 250] USD: require approval -> allow (widens)']
 */
export function previewChanges(preview: ImpactPreview): PreviewChanges {
  const tools = new Set<string>();
  const words = new Set<string>();
  const entries: DecisionDiffEntry[] = [];
  for (const catalogue of preview.catalogues) {
    for (const tool of catalogue.tools) {
      tools.add(tool.tool);
      for (const entry of tool.changes) {
        if (words.has(entry.words)) continue;
        words.add(entry.words);
        entries.push(entry);
      }
    }
  }
  const unchanged = new Set(preview.catalogues.flatMap((c) => c.unchanged).filter((t) => !tools.has(t)));
  return { tools: [...tools], entries, unchanged: [...unchanged] };
}

/** `1 tool changes decision in 2 regions; 4 tools do not`, the counts a reviewer reads first. */
export function countWords({ tools, entries, unchanged }: PreviewChanges): string {
  const changed =
    tools.length === 0
      ? 'No tool changes decision'
      : `${plural(tools.length, 'tool')} ${tools.length === 1 ? 'changes' : 'change'} decision in ${plural(entries.length, 'region')}`;
  return unchanged.length === 0 ? changed : `${changed}; ${plural(unchanged.length, 'tool')} ${unchanged.length === 1 ? 'does' : 'do'} not`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The direction of a change in words: toward allow widens security, away from it narrows, and a region that
 * depends on arguments may go either way.
 *
 * @example
 * directionWords({ widens: true, narrows: false, depends: false }) // 'widens security'
 */
export function directionWords(d: { widens: boolean; narrows: boolean; depends: boolean }): string {
  const parts = [d.widens ? 'widens security' : 'does not widen security', d.narrows && 'narrows', d.depends && 'depends on arguments'];
  return parts.filter(Boolean).join(', ');
}

/** Where a change lies, as the engine says it (docs/review.md, "Words"): `issue_refund (refund.issue), amount in (100, 250] USD`. */
export function regionWords(entry: DecisionDiffEntry): string {
  const where = [entry.subject.label];
  const { amount, currency } = entry.region;
  if (currency !== null) {
    if (amount === null) where.push('no amount');
    else where.push(`amount ${amount.words.startsWith('=') ? '' : 'in '}${amount.words} ${currency}`);
  }
  if (entry.region.arguments.length > 0) where.push(entry.region.arguments.map((c) => c.words).join(', '));
  return where.join(', ');
}

/**
 * A change as the rule view says it: where, and each side's outcome with the rule or code that decides it (the
 * summary's sentence says the direction; this says which rule gives which outcome).
 *
 * @example
 * ruleChangeWords(entry) // 'issue_refund (refund.issue), amount in (100, 250] USD: require approval by role owner (refund-approval) → allow (refund-auto)'
 */
export function ruleChangeWords(entry: DecisionDiffEntry): string {
  if (entry.kind === 'depends_on_arguments') return `${regionWords(entry)}: may change, depends on arguments`;
  return `${regionWords(entry)}: ${outcomeWords(entry.from)} → ${outcomeWords(entry.to)}`;
}
