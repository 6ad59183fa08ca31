// Shadow runs at the gate (docs/review.md, "Shadow runs of rule files"): for each rule file the agent runs that
// is under shadow, the candidate checks the call detect-only beside the running version; the rules whose
// verdicts differ are recorded with the decision. The running version alone decides.
import { type GateCall, type ShadowDifference, type ShadowSide, shadowDifference, shadowSide } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import type { RuleShadow } from '../shadows/rule-shadows.ts';
import type { LoadedAgent } from './load-agent.ts';

/** Each rule file an agent runs, with its running side, laid once per loaded agent. */
const runningSides = new WeakMap<LoadedAgent, Map<string, ShadowSide>>();
/** Candidate sides, laid on a loaded agent's catalogue once per candidate. */
const candidateSides = new WeakMap<LoadedAgent, Map<string, ShadowSide | undefined>>();

/** A rule file under shadow as a call meets it: its running side and its candidate's. */
export interface ShadowPair {
  document: string;
  running: ShadowSide;
  candidate: ShadowSide;
}

/** The pairs of a call while no rule file is under shadow (RuleShadows.knownNone): one list for every such call. */
export const NO_SHADOW_PAIRS: readonly ShadowPair[] = Object.freeze([]);

/**
 * The rule files the agent runs that are under shadow, each with both sides laid (cached per loaded agent): what a
 * call is checked against, read before the call is decided so the check itself waits on nothing.
 */
export async function shadowPairsFor(ctx: AppContext, loaded: LoadedAgent): Promise<readonly ShadowPair[]> {
  const active = await ctx.shadows.active();
  if (active.size === 0) return NO_SHADOW_PAIRS;
  const pairs: ShadowPair[] = [];
  for (const [document, running] of sidesOf(loaded)) {
    const shadow = active.get(document);
    if (!shadow || shadow.candidate === loaded.versions[document]) continue;
    const candidate = await candidateSide(ctx, loaded, shadow);
    if (candidate) pairs.push({ document, running, candidate });
  }
  return pairs;
}

/**
 * The shadow differences of a call: empty when no rule file the agent runs is under shadow, or none differs.
 *
 * @example
 * shadowDifferencesOn(await shadowPairsFor(ctx, loaded), { tool: 'read_order', arguments: {} })
 * // [{ document: 'sheets/support.rules.yaml', rule: 'read_order', running: 'allow', candidate: 'refuse' }]
 */
export function shadowDifferencesOn(pairs: readonly ShadowPair[], call: GateCall): ShadowDifference[] {
  const differences: ShadowDifference[] = [];
  for (const { document, running, candidate } of pairs) {
    const difference = shadowDifference(document, running, candidate, call);
    if (difference) differences.push(difference);
  }
  return differences;
}

function sidesOf(loaded: LoadedAgent): Map<string, ShadowSide> {
  const known = runningSides.get(loaded);
  if (known) return known;
  const { parts, agent } = loaded;
  const sides = new Map<string, ShadowSide>();
  if (agent.rulebook !== undefined && parts.rulebook !== undefined) {
    sides.set(agent.rulebook, shadowSide(parts.catalogue, parts.rulebook, parts.overlay));
  }
  for (const book of parts.rulebooks ?? []) sides.set(book.document, shadowSide(parts.catalogue, book.rulebook, book.overlay));
  runningSides.set(loaded, sides);
  return sides;
}

async function candidateSide(ctx: AppContext, loaded: LoadedAgent, shadow: RuleShadow): Promise<ShadowSide | undefined> {
  let known = candidateSides.get(loaded);
  if (!known) {
    known = new Map();
    candidateSides.set(loaded, known);
  }
  const key = `${shadow.document}@${shadow.candidate}`;
  if (known.has(key)) return known.get(key);
  const compiled = await ctx.shadows.candidate(shadow.document, shadow.candidate);
  const side = compiled && shadowSide(loaded.parts.catalogue, compiled.rulebook, compiled.overlay);
  known.set(key, side);
  return side;
}
