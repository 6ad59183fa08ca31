// Prepares an agent's gate parts once, for many calls (docs/performance.md): what a decision needs that does
// not depend on the call. Tools by name with their compiled amount mappings and whether the delegation covers
// them, each rulebook's overlay laid once, the delegation's validity and the observe windows parsed, and the
// rule set's own verdict. decidePrepared (decide-call.ts) then decides a call from it in a few microseconds.
import type { Code } from '../codes/index.ts';
import { isApprovedVersion, type ObserveWindow } from '../documents/settings.ts';
import { parseDateTime } from '../documents/values.ts';
import { compileTool } from '../policy/compile.ts';
import { matchesAction } from '../policy/pattern.ts';
import { policyRevision } from '../policy/revision.ts';
import type { CompiledTool } from '../policy/tool.ts';
import type { Catalogue, CatalogueTool } from '../rulebook/catalogue.ts';
import { layOverlay } from '../rulebook/overlay.ts';
import { toolReadsHistory } from '../rulebook/tool-check.ts';
import type { Rulebook } from '../rulebook/types.ts';
import type { DecideCallInput, GateDecisionKind } from './gate-types.ts';

/** What decides every call of one agent: the decision's input without the call, the time and the members. */
export type GateParts = Omit<DecideCallInput, 'call' | 'now' | 'members'>;

/** One catalogue tool, prepared. */
export interface PreparedTool {
  readonly entry: CatalogueTool;
  /** The tool's binding compiled (its amount mapping validated and its pointers split). */
  readonly compiled: CompiledTool;
  /** Whether one of the delegation's action patterns covers the tool's action. */
  readonly delegated: boolean;
  /** False when the host says the tool's binding is not the authorized one (parts.unauthorizedTools). */
  readonly authorized: boolean;
  /**
   * For each rulebook the gate checks (prepared.rulebooks, same order): a catalogue of this tool alone,
   * with that rulebook's overlay laid on it, so the tool check finds it at once.
   */
  readonly catalogues: readonly Catalogue[];
  /** Whether a rulebook's check of this tool reads the session's history (toolReadsHistory, any of `catalogues`). */
  readonly readsHistory: boolean;
}

/** An observe window with its bounds parsed (windows whose dates do not parse never open). */
export interface PreparedWindow {
  readonly window: ObserveWindow;
  readonly starts: number;
  readonly ends: number;
}

/** What the rule set's status alone decides: every call is denied with this code and summary. */
export interface PreparedRefusal {
  readonly decision: GateDecisionKind;
  readonly code: Code;
  readonly summary: string;
  readonly replaced_by?: string;
}

/** An agent's parts prepared by prepareGate; read-only, shared by every call. */
export interface PreparedGate {
  readonly parts: GateParts;
  /** The catalogue's tools by name (the first of a name, as a search of the catalogue finds). */
  readonly tools: ReadonlyMap<string, PreparedTool>;
  /**
   * The agent's rulebook (when it names one or its sheet lays an overlay), then every pinned one; with none of
   * those, one empty rulebook, so the catalogue's own declarations are still checked. Never empty.
   */
  readonly rulebooks: readonly Rulebook[];
  /** Whether the delegation has a valid_until, and its time (undefined when it does not parse). */
  readonly hasValidUntil: boolean;
  readonly validUntil: number | undefined;
  readonly validUntilDate: Date | undefined;
  readonly windows: readonly PreparedWindow[];
  /** Set when the rule set refuses every call (archived, disabled, draft, not approved, unusable pins). */
  readonly rulesetRefusal: PreparedRefusal | undefined;
  /** Set when a policy is of a language revision above the one the gateway decides: every call is denied. */
  readonly languageRefusal: PreparedRefusal | undefined;
}

const EMPTY_RULEBOOK: Rulebook = { format: 'tollgate/rulebook@1', flows: [] };

/**
 * Prepares an agent's parts once. The parts are kept by reference and must not change afterwards.
 *
 * @example
 * const prepared = prepareGate({ catalogue, policies, delegation: { actions: ['refund.issue'] } });
 * decidePrepared(prepared, { members, now: new Date(), call: { tool: 'issue_refund', arguments: { amount: '50' } } })
 * // { decision: 'allow', rule: 'refund-auto', ... }: the same as decideCall on the same parts
 */
export function prepareGate(parts: GateParts): PreparedGate {
  const overlaid: Catalogue[] = [];
  const rulebooks: Rulebook[] = [];
  if (parts.rulebook !== undefined || parts.overlay !== undefined) {
    rulebooks.push(parts.rulebook ?? EMPTY_RULEBOOK);
    overlaid.push(parts.overlay ? layOverlay(parts.catalogue, parts.overlay) : parts.catalogue);
  }
  for (const b of parts.rulebooks ?? []) {
    rulebooks.push(b.rulebook ?? EMPTY_RULEBOOK);
    overlaid.push(b.overlay ? layOverlay(parts.catalogue, b.overlay) : parts.catalogue);
  }
  // Whatever declares a limit, the gate enforces it: an agent with no rulebook still has its catalogue's own
  // declarations (after, not_after, at_most, checks, confirmation) checked, by the tool check over an empty
  // rulebook, exactly as a sheet's overlay would be (docs/catalogue.md, "The tool check").
  if (rulebooks.length === 0) {
    rulebooks.push(EMPTY_RULEBOOK);
    overlaid.push(parts.catalogue);
  }

  const delegation = parts.delegation;
  const unauthorized = new Set(parts.unauthorizedTools ?? []);
  const tools = new Map<string, PreparedTool>();
  parts.catalogue.tools.forEach((entry, index) => {
    if (tools.has(entry.name)) return;
    const compiled = compileTool(
      entry.amount === undefined
        ? { name: entry.name, action: entry.action }
        : { name: entry.name, action: entry.action, amount: entry.amount },
    );
    const catalogues = overlaid.map((c) => ({ tools: [c.tools[index] as CatalogueTool] }));
    tools.set(entry.name, {
      entry,
      compiled,
      delegated: delegation.actions.some((p) => matchesAction(p, entry.action)),
      authorized: !unauthorized.has(entry.name),
      catalogues,
      readsHistory: catalogues.some((c) => toolReadsHistory(c.tools[0] as CatalogueTool)),
    });
  });

  const hasValidUntil = delegation.valid_until !== undefined;
  const validUntil = delegation.valid_until === undefined ? undefined : parseDateTime(delegation.valid_until);
  const windows: PreparedWindow[] = [];
  for (const window of parts.observeWindows ?? []) {
    const starts = parseDateTime(window.starts);
    const ends = parseDateTime(window.ends);
    if (starts !== undefined && ends !== undefined) windows.push({ window, starts, ends });
  }

  return {
    parts,
    tools,
    rulebooks,
    hasValidUntil,
    validUntil,
    validUntilDate: validUntil === undefined ? undefined : new Date(validUntil),
    windows,
    rulesetRefusal: rulesetRefusal(parts),
    languageRefusal: languageRefusal(parts),
  };
}

/**
 * A gateway never decides with a document above its language revision (docs/deploy.md, "the language
 * gate"): it would read rules whose meaning it does not know, so the first such policy denies every call.
 */
export function languageRefusal(parts: Pick<GateParts, 'policies' | 'languageRevision'>): PreparedRefusal | undefined {
  const supported = parts.languageRevision;
  if (supported === undefined) return undefined;
  for (const p of parts.policies) {
    const revision = policyRevision(p.policy.document);
    if (revision <= supported) continue;
    return {
      decision: 'deny',
      code: 'LANGUAGE_REVISION_UNSUPPORTED',
      summary: `version ${p.sequence} of ${p.document} is policy language revision ${revision} and this gateway decides revision ${supported} at most, so the call is denied`,
    };
  }
  return undefined;
}

/** The observe window open at `t` (starts inclusive, ends exclusive); a denials window before an approvals one. */
export function openWindow(windows: readonly PreparedWindow[], t: number): ObserveWindow | undefined {
  let first: ObserveWindow | undefined;
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i] as PreparedWindow;
    if (!(w.starts <= t && t < w.ends)) continue;
    if (w.window.relax === 'denials') return w.window;
    first ??= w.window;
  }
  return first;
}

function rulesetRefusal(parts: GateParts): PreparedRefusal | undefined {
  const ruleset = parts.ruleset;
  if (ruleset === undefined) return undefined;
  const deny = (code: Code, summary: string): PreparedRefusal => ({ decision: 'deny', code, summary });
  if (ruleset.status === 'archived') {
    if (ruleset.replaced_by === undefined) {
      return deny('RULESET_ARCHIVED', `the rule set ${ruleset.document} is archived, so the call is denied`);
    }
    return {
      ...deny(
        'RULESET_ARCHIVED',
        `the rule set ${ruleset.document} is archived and replaced by ${ruleset.replaced_by}, so the call is denied`,
      ),
      replaced_by: ruleset.replaced_by,
    };
  }
  if (ruleset.status === 'disabled') {
    return deny('RULESET_DISABLED', `the rule set ${ruleset.document} is disabled, so the call is denied`);
  }
  if (ruleset.status === 'draft' || ruleset.draftVersion === true) {
    const what = ruleset.status === 'draft' ? 'is a draft' : `version ${ruleset.version} is a draft`;
    return deny('RULESET_NOT_ACTIVE', `the rule set ${ruleset.document} ${what}, so the call is denied`);
  }
  if (parts.approvedRulesets !== undefined && !isApprovedVersion(parts.approvedRulesets, ruleset.document, ruleset.version)) {
    return deny(
      'RULESET_NOT_APPROVED',
      `only approved rule sets run and version ${ruleset.version} of ${ruleset.document} is not approved, so the call is denied`,
    );
  }
  if (ruleset.unusableRules !== undefined && ruleset.unusableRules.length > 0) {
    return deny(
      'RULESET_RULE_UNUSABLE',
      `the rule set ${ruleset.document} pins ${ruleset.unusableRules.join(', ')}, since disabled or archived, so the call is denied`,
    );
  }
  return undefined;
}

/**
 * Whether deciding a call of `tool` reads the session's history (`call.history`): a host may pass none when it
 * does not, and the decision is the same (a tool the catalogue does not hold is refused before any history).
 *
 * @example
 * callReadsHistory(prepared, 'issue_refund') // true: the sheet says at_most: 5
 * callReadsHistory(prepared, 'read_order') // false
 */
export function callReadsHistory(prepared: PreparedGate, tool: string): boolean {
  return prepared.tools.get(tool)?.readsHistory ?? false;
}
