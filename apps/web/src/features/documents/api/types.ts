// The document shapes the API answers, from the generated schema (GET /v1/documents and friends, docs/api.md).
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];

export type DocumentProblem = Schemas['DocumentProblem'];
export type DocumentSummary = Schemas['DocumentSummary'];
export type DocumentVersion = Schemas['DocumentVersion'];
/** A document at one version, with its text (the running one, or a stored one). */
export type DocumentText = Schemas['Document'];
export type DocumentDiff = Schemas['DocumentDiff'];
export type CatalogueTools = Schemas['CatalogueToolBindings'];
export type CatalogueToolBinding = Schemas['CatalogueToolBinding'];
export type ToolBinding = Schemas['ToolBinding'];
export type ToolDecision = Schemas['ToolDecision'];
export type ReviewOutcome = Schemas['ReviewOutcome'];
export type AgentDecisionMap = Schemas['AgentDecisionMap'];
export type PolicyDecisionMap = Schemas['DocumentDecisionMap'];
export type ImpactPreview = Schemas['ImpactPreview'];
export type DecisionDiffEntry = Schemas['DecisionDiffEntry'];
/** A tool's amount mapping, as its binding declares it (docs/catalogue.md). */
export type AmountMapping = NonNullable<CatalogueToolBinding['amount']>;

/** The newest stored sequence of a history (oldest first): the document's entity tag, which activate and revert send as If-Match. */
export function newestSequence(history: readonly DocumentVersion[]): number | null {
  return history.reduce<number | null>((newest, v) => (newest === null || v.sequence > newest ? v.sequence : newest), null);
}
