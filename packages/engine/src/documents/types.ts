// What the document validators and impact analysers may be told, and what an impact analysis says.
import type { Member, ToolBinding } from '../policy/types.ts';
import type { LintCatalogue } from '../sheet/lint.ts';
import type { PinContext } from './ruleset.ts';
import type { ReferenceContext } from './values.ts';

/**
 * What a validator may be given beside the text: a store to ask whether named documents exist, the
 * agent's catalogue for sheet and Colang lints, tools and members for a policy's warnings and approvers.
 */
export interface DocumentContext extends ReferenceContext, Partial<PinContext> {
  catalogue?: LintCatalogue;
  tools?: readonly ToolBinding[];
  members?: readonly Member[];
  /** The servers of the upstreams document (mcp/servers.yaml): a catalogue tool's upstream.server must name one. */
  upstreams?: ReadonlySet<string>;
}

/** Whether an edit widens security, and precisely what it widens (`rules/refund-auto amount lte 100 -> 250`). */
export interface Impact {
  widensSecurity: boolean;
  widenedSubjects: string[];
  /**
   * Every change of decision in words, narrowing ones too, where the kind's analyser knows them (policies:
   * the decision diff's regions, docs/review.md); absent for kinds compared rule by rule.
   */
  changes?: string[];
}

/** What an impact analysis may be told beside the two texts. */
export interface ImpactContext {
  /** The organisation's default approval lifetime (settings.yaml), 86400 seconds unless given. */
  defaultApprovalTtlSeconds?: number;
  /** How long a policy's decision diff may take (IMPACT_ANALYSIS_MS unless given); past it the edit counts as widening. */
  analysisMs?: number;
  /**
   * The impact of moving a rule set's pin from one version of a document to another (undefined: the
   * running version); undefined when it cannot be told, and the move is then flagged.
   */
  impactOfPin?(document: string, from: number | undefined, to: number | undefined): Impact | undefined;
}

/**
 * An impact from its subjects: it widens exactly when it names something.
 *
 * @example
 * impactOf(['default deny -> require_approval']) // { widensSecurity: true, widenedSubjects: [...] }
 * impactOf([]) // { widensSecurity: false, widenedSubjects: [] }: no widening
 */
export function impactOf(subjects: readonly string[]): Impact {
  return { widensSecurity: subjects.length > 0, widenedSubjects: [...subjects] };
}
