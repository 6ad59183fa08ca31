// The rulebooks' tool check: the agent's own rulebook, then every rulebook its rule set pins (or, with none, an
// empty one over the bare catalogue: prepare-gate.ts), so a catalogue's declarations always hold. A refusal
// anywhere wins; under a denials observe window it is relaxed and kept as what the call would have been.
// A confirmation waits for the policies: it is asked only of a call no standing denial refuses.
import type { Catalogue } from '../rulebook/catalogue.ts';
import { checkTool } from '../rulebook/tool-check.ts';
import type { Rulebook } from '../rulebook/types.ts';
import { gateDecision } from './gate-decision.ts';
import type { GateCall, GateDecision } from './gate-types.ts';
import type { AdmittedCall } from './hard-limits.ts';
import type { PreparedGate } from './prepare-gate.ts';

/** What the rulebooks said of the call, short of a refusal that stands. */
export interface RulebookVerdicts {
  /** The first refusal a denials window relaxed: the decision it would have been. */
  readonly relaxedRefusal?: GateDecision;
  /** The first confirmation a rulebook asks for (a catalogue's own, or one an overlay declares). */
  readonly confirm?: GateDecision;
}

/** How an observe window treats a rulebook's refusal: it stands, or it is relaxed (kept as what would have been). */
export type RefusalHandling = 'stands' | 'relaxed';

/** The rulebooks' verdicts on the call; a refusal that stands is answered at once (`refused`). */
export function checkRulebooks(
  prepared: PreparedGate,
  admitted: AdmittedCall,
  call: GateCall,
  refusals: RefusalHandling,
): { readonly refused: GateDecision } | (RulebookVerdicts & { readonly refused?: undefined }) {
  const rulebooks = prepared.rulebooks;
  const { scope, prep } = admitted;
  let relaxedRefusal: GateDecision | undefined;
  let confirm: GateDecision | undefined;
  const toolCall = { tool: call.tool, arguments: call.arguments };
  for (let i = 0; i < rulebooks.length; i++) {
    const verdict = checkTool({
      rulebook: rulebooks[i] as Rulebook,
      catalogue: prep.catalogues[i] as Catalogue,
      call: toolCall,
      contexts: call.contexts,
      history: call.history,
      confirmed: call.confirmed,
    });
    if (verdict.verdict === 'refuse') {
      const refused = gateDecision(scope, 'deny', verdict.code, verdict.rule, verdict.reason);
      if (refusals === 'stands') return { refused };
      relaxedRefusal ??= refused;
    } else if (verdict.verdict === 'confirm' && confirm === undefined) {
      confirm = confirmation(admitted, verdict.rule, verdict.confirmation);
    }
  }
  return { relaxedRefusal, confirm };
}

function confirmation(admitted: AdmittedCall, rule: string | null, words: string): GateDecision {
  const name = admitted.entry.name;
  return gateDecision(admitted.scope, 'confirm', 'CONFIRMATION_REQUIRED', rule, `${name} needs a person's confirmation: ${words}`, words);
}
