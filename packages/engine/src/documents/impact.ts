// analyzeImpact: what an edit of any kind of document widens, compared with the version running now.
import { analyzeAgentImpact } from './impact-agent.ts';
import { analyzeCatalogueImpact } from './impact-catalogue.ts';
import { analyzeColangImpact } from './impact-colang.ts';
import { analyzePolicyImpact } from './impact-policy.ts';
import { analyzeRulesetImpact } from './impact-ruleset.ts';
import { analyzeSettingsImpact } from './impact-settings.ts';
import { analyzeSheetImpact } from './impact-sheet.ts';
import { analyzeUpstreamsImpact } from './impact-upstreams.ts';
import type { DocumentKind } from './kinds.ts';
import type { Impact, ImpactContext } from './types.ts';
import { impactOf } from './types.ts';

/**
 * Whether a new version widens security compared with the running one (undefined: a new document), and
 * precisely what. A text that does not load widens nothing (its validator refuses it); narrowing edits
 * and identical texts are never flagged.
 *
 * @example
 * analyzeImpact('sheet', 'rules:\n  - action: a\n    at_most: 1\n', 'rules:\n  - action: a\n    at_most: 2\n')
 * // { widensSecurity: true, widenedSubjects: ['rules/a at_most 1 -> 2'] }
 */
export function analyzeImpact(kind: DocumentKind, runningText: string | undefined, newText: string, context: ImpactContext = {}): Impact {
  if (runningText === newText) return impactOf([]);
  switch (kind) {
    case 'policy':
      return analyzePolicyImpact(runningText, newText, context);
    case 'examples':
      // Example calls say what a policy should decide; they never decide a call, so they widen nothing.
      return impactOf([]);
    case 'sheet':
      return analyzeSheetImpact(runningText, newText);
    case 'colang':
      return analyzeColangImpact(runningText, newText);
    case 'catalogue':
      return analyzeCatalogueImpact(runningText, newText);
    case 'ruleset':
      return analyzeRulesetImpact(runningText, newText, context);
    case 'agent':
      return analyzeAgentImpact(runningText, newText);
    case 'settings':
      return analyzeSettingsImpact(runningText, newText);
    case 'upstreams':
      return analyzeUpstreamsImpact(runningText, newText);
  }
}
