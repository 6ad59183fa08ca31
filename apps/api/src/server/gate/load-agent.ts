// Loading an agent for the gate: its document and everything it names (catalogue, rulebook, policy or rule
// set with its pinned rules, settings) at their running versions, compiled and prepared once, and kept
// until the store is written or a tool is authorized. The gate route (routes/gate.ts) only decides with it.
import {
  type Agent,
  type CatalogueOverlay,
  catalogueFormatOf,
  compilePolicy,
  compileRules,
  DEFAULT_APPROVAL_TTL_SECONDS,
  documentKindOf,
  type GateParts,
  type GatePolicy,
  type GateRulebook,
  type GateRuleset,
  isApprovedVersion,
  type PreparedGate,
  prepareGate,
  type Rulebook,
  readAgent,
  readCatalogue,
  readSettings,
  type Settings,
} from '@tollgate/engine';
import { type Diagnostic, diagnosticJson, readJsonText } from '@tollgate/engine/source';
import { offLoop } from '../compile-thread.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { notFound } from '../routes/route-kit.ts';
import { loadPinnedRules, readRulesetVersion } from '../rulesets/ruleset-versions.ts';
import { LATEST_LANGUAGE_REVISION } from '../state/nodes/model.ts';

export interface LoadedAgent {
  agent: Agent;
  /** Documents read at a pinned sequence rather than their running one. */
  pinned: string[];
  parts: GateParts;
  /** The parts prepared once for every call (prepareGate): tools by name, overlays laid, dates parsed. */
  prepared: PreparedGate;
  versions: Record<string, number>;
  /** The settings' approvals_require_member_keys: only members holding a key of their own are eligible approvers. */
  requireMemberKeys: boolean;
}

async function running(ctx: AppContext, id: string, versions: Record<string, number>): Promise<string> {
  const doc = await ctx.store.get(id);
  if (!doc) throw new ApiError('AGENT_NOT_LOADABLE', `${id} has no running version`);
  versions[id] = doc.sequence;
  return doc.text;
}

function unloadable(id: string, problems: readonly Diagnostic[]): never {
  throw new ApiError('AGENT_NOT_LOADABLE', `${id} does not load`, { problems: problems.map(diagnosticJson) });
}

/** A pinned rule that does not load makes the agent unloadable, naming the rule. */
function rulesUnloadable(err: unknown): never {
  if (err instanceof ApiError) throw new ApiError('AGENT_NOT_LOADABLE', err.message, err.details);
  throw err;
}

const loadedAgents = new WeakMap<
  AppContext,
  Map<string, { loaded: LoadedAgent; generation: number; authorizations: number; versionsJson: string }>
>();

/**
 * The agent as loaded for its documents' current versions, with its versions as recorded JSON. A loaded
 * agent is trusted until the store is written (`ctx.documentChanges`) or a tool is authorized: a call then
 * reads no document at all. The generations are taken before loading, so a write during a load leaves a
 * stale entry unused.
 */
export async function loadAgentCached(ctx: AppContext, name: string): Promise<{ loaded: LoadedAgent; versionsJson: string }> {
  let cache = loadedAgents.get(ctx);
  if (!cache) {
    cache = new Map();
    loadedAgents.set(ctx, cache);
  }
  // Both reads at once: on a shared database each is a round trip, at most once per turn of the event loop.
  const [, authorizations] = await Promise.all([ctx.documentsFresh?.(), ctx.state.authorizationGeneration()]);
  const generation = ctx.documentChanges.generation;
  const hit = cache.get(name);
  if (hit && hit.generation === generation && hit.authorizations === authorizations) return hit;
  const loaded = await loadAgent(ctx, name);
  const entry = { loaded, generation, authorizations, versionsJson: JSON.stringify(loaded.versions) };
  cache.set(name, entry);
  return entry;
}

/** Loads the agent and every document it names, at their running versions (pinned ones at their pin). */
export async function loadAgent(ctx: AppContext, name: string): Promise<LoadedAgent> {
  const id = `agents/${name}.agent.yaml`;
  if (documentKindOf(id) !== 'agent') throw notFound('agent', `no agent named ${name}`);
  const doc = await ctx.store.get(id);
  if (!doc) throw notFound('agent', `no agent named ${name}`);
  const versions: Record<string, number> = { [id]: doc.sequence };
  const read = readAgent(doc.text);
  if (!read.ok) unloadable(id, read.problems);
  const agent = read.agent;

  const catalogueRead = readCatalogue(await running(ctx, agent.catalogue, versions), catalogueFormatOf(agent.catalogue) ?? 'yaml');
  if (!catalogueRead.ok) unloadable(agent.catalogue, catalogueRead.problems);

  let rulebook: Rulebook | undefined;
  let overlay: CatalogueOverlay | undefined;
  if (agent.rulebook !== undefined) {
    const kind = documentKindOf(agent.rulebook) === 'colang' ? 'colang' : 'sheet';
    const text = await running(ctx, agent.rulebook, versions);
    const id = agent.rulebook;
    // A big sheet compiles on the compile thread, so loading the agent never holds the other calls.
    const compiled = await offLoop(text.length, { rules: { text, kind, id } }, () => compileRules(text, kind, undefined, id));
    if (!compiled.ok) unloadable(agent.rulebook, compiled.problems);
    rulebook = compiled.rulebook;
    overlay = compiled.overlay;
  }

  // Settings first: whether only approved rule sets run decides whether the rule set's pins are read at all.
  let ttl = DEFAULT_APPROVAL_TTL_SECONDS;
  let settingsRead: Settings | undefined;
  const settingsDoc = await ctx.store.get('settings.yaml');
  if (settingsDoc) {
    const s = readSettings(settingsDoc.text, undefined, { stored: true });
    if (s.ok) {
      settingsRead = s.settings;
      ttl = s.settings.approval_ttl_seconds;
      versions['settings.yaml'] = settingsDoc.sequence;
    }
  }
  const approvedRulesets = settingsRead?.approved_rulesets_only ? settingsRead.approved_rulesets : undefined;

  const policies: GatePolicy[] = [];
  const rulebooks: GateRulebook[] = [];
  const pinned: string[] = [];
  let ruleset: GateRuleset | undefined;
  const addPolicy = (document: string, sequence: number, text: string) => {
    const read = readJsonText(text);
    if (!read.ok) unloadable(document, [read.diagnostic]);
    if (read.diagnostics.length > 0) unloadable(document, read.diagnostics);
    const compiled = compilePolicy(read.value);
    if (!compiled.ok) unloadable(document, compiled.errors);
    policies.push({ document, sequence, policy: compiled.policy });
  };
  if (agent.policy !== undefined) {
    const text = await running(ctx, agent.policy, versions);
    addPolicy(agent.policy, versions[agent.policy] as number, text);
  } else if (agent.ruleset !== undefined) {
    // The version the agent names, else the set's active one; a draft version or a set the gate refuses
    // (archived, disabled, draft, not approved, pinning a rule disabled since) runs nothing.
    const { view } = await readRulesetVersion(ctx, agent.ruleset, agent.ruleset_version).catch((err: unknown) => {
      if (err instanceof ApiError) unloadable(agent.ruleset as string, [{ code: err.code, severity: 'error', message: err.message }]);
      throw err;
    });
    versions[agent.ruleset] = view.version_id;
    ruleset = { document: agent.ruleset, version: view.version_id, status: view.status };
    if (view.draft) ruleset.draftVersion = true;
    if (view.replaced_by !== undefined) ruleset.replaced_by = view.replaced_by;
    const unusable = view.pins.filter((p) => p.status === 'disabled' || p.status === 'archived').map((p) => p.rule_id);
    if (unusable.length > 0) ruleset.unusableRules = unusable;
    const runs =
      (view.status === 'active' || view.status === 'test') &&
      !view.draft &&
      unusable.length === 0 &&
      (approvedRulesets === undefined || isApprovedVersion(approvedRulesets, agent.ruleset, view.version_id));
    for (const rule of runs ? await loadPinnedRules(ctx, view).catch(rulesUnloadable) : []) {
      versions[rule.rule_id] = rule.version_id;
      if (rule.pinned) pinned.push(rule.rule_id);
      if (rule.kind === 'policy') policies.push({ document: rule.rule_id, sequence: rule.version_id, policy: rule.policy });
      else {
        const book: GateRulebook = { document: rule.rule_id, sequence: rule.version_id, rulebook: rule.rulebook };
        if (rule.overlay !== undefined) book.overlay = rule.overlay;
        rulebooks.push(book);
      }
    }
  }

  const parts: GateParts = {
    catalogue: catalogueRead.catalogue,
    rulebook,
    overlay,
    rulebooks,
    policies,
    ruleset,
    approvedRulesets,
    observeWindows: settingsRead?.observe_windows ?? [],
    delegation: agent.delegation,
    defaultApprovalTtlSeconds: ttl,
    disclosure: agent.disclosure,
    // Tools whose binding is not the authorized one run no call (docs/catalogue.md, "The authorized binding").
    unauthorizedTools: await ctx.state.unauthorizedTools(agent.catalogue, catalogueRead.catalogue),
    // A node never decides with a policy above the revision it declared (docs/deploy.md, "the language gate"); a
    // context that registered none decides up to what this build knows, never every revision.
    languageRevision: ctx.node?.languageRevision ?? LATEST_LANGUAGE_REVISION,
  };
  const requireMemberKeys = settingsRead?.approvals_require_member_keys === true;
  return { agent, pinned, versions, parts, prepared: prepareGate(parts), requireMemberKeys };
}
