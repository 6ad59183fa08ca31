// A rule set at one version as people and the gate read it: its pins resolved against the store (the
// version each runs, whether the rule has a newer running version, the rule's name, description and owner),
// its status and whether the version is a draft (saved after the active version and never activated). A pin
// written without a version takes its rule's running version when the set version is made, and keeps it
// (docs/rulesets.md, "Pins are resolved when a version is made").
import {
  catalogueFormatOf,
  compilePolicy,
  compileRules,
  documentKindOf,
  type LoadedRule,
  type PinContext,
  type PinnedRule,
  type RuleStatus,
  type Ruleset,
  readCatalogue,
  readRuleset,
  resolvePins,
} from '@tollgate/engine';
import { diagnosticJson, readJsonText } from '@tollgate/engine/source';
import type { DocumentVersion } from '@tollgate/store';
import { offLoop } from '../compile-thread.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { notFound } from '../routes/route-kit.ts';
import { lifecycleOf } from './lifecycle.ts';

export type RuleKind = 'policy' | 'sheet' | 'colang';

export interface PinView {
  rule_id: string;
  /**
   * The version the pin names; null only in a version stored before pins were resolved when a set version is
   * made, which runs nothing until updated to latest.
   */
  version_id: number | null;
  /** The version that runs for this pin (null when none does). */
  used_version: number | null;
  running_version: number | null;
  /** A newer running version of the rule exists than the one pinned (or the pin names none). */
  newer: boolean;
  kind: RuleKind;
  status: RuleStatus;
  /** The rule's name: its file name without folder and kind suffix (`refunds` for policies/refunds.policy.json). */
  name: string;
  /** A sheet's or Colang document's leading comment at the version used; null for a policy (it has none). */
  description: string | null;
  /** Who created the rule: the author of its first stored version. */
  owner: string | null;
}

export interface RulesetVersionView {
  id: string;
  version_id: number;
  active_version: number | null;
  /** Saved after the active version and never activated: agents cannot run it until it is. */
  draft: boolean;
  status: RuleStatus;
  replaced_by?: string;
  name: string;
  description?: string;
  tags?: string[];
  pins: PinView[];
}

export interface RulesetVersionSummary {
  version_id: number;
  author: string;
  reason: string;
  created_at: string;
  active: boolean;
  draft: boolean;
}

/** What the pin checks ask of the store: each rule's status, loadable versions and running one, fetched first. */
export async function pinContextFor(ctx: AppContext, ids: readonly string[]): Promise<PinContext> {
  const lifecycle = lifecycleOf(ctx.store);
  const known = new Map<string, PinnedRule>();
  for (const id of new Set(ids)) {
    if (typeof id !== 'string' || documentKindOf(id) === undefined) continue;
    const history = await ctx.store.history(id).catch(() => [] as DocumentVersion[]);
    const loadable = history.filter((v) => !v.rejected);
    const versions = loadable.map((v) => v.sequence);
    if (versions.length === 0) continue;
    known.set(id, {
      status: await lifecycle.statusOf(id),
      hasVersion: (v) => versions.includes(v),
      running: loadable.find((v) => v.running)?.sequence ?? null,
    });
  }
  return { rule: (id) => known.get(id) };
}

/** The rule ids a text names, best effort, so their state can be fetched before the text is checked. */
export function pinnedIdsOf(text: string): string[] {
  const read = readJsonText(text);
  const value = (read.ok ? read.value : undefined) as { pins?: unknown } | undefined;
  if (value === null || typeof value !== 'object' || !Array.isArray(value.pins)) return [];
  return value.pins.flatMap((p) => (p !== null && typeof p === 'object' && typeof p.rule_id === 'string' ? [p.rule_id] : []));
}

/**
 * Checks a rule set's text against the store; a refusal is a 422 naming every rule at fault. The set comes
 * back with every pin at a version: one that names none takes its rule's running version, so the version about
 * to be made behaves the same until someone changes it (docs/rulesets.md).
 */
export async function checkRulesetText(ctx: AppContext, text: string): Promise<Ruleset> {
  const context = await pinContextFor(ctx, pinnedIdsOf(text));
  const read = readRuleset(text, context);
  if (read.ok) return resolvePins(read.ruleset, context);
  const rules = read.rules;
  const message = rules.length > 0 ? `the rule set is refused; rules at fault: ${rules.join(', ')}` : 'the rule set is refused';
  throw new ApiError('RULESET_REFUSED', message, {
    rules,
    problems: read.problems.map(diagnosticJson),
  });
}

/** A rule set's text as the API writes it, every pin at its version. */
export function rulesetText(set: Ruleset): string {
  const doc: Record<string, unknown> = { name: set.name };
  if (set.description !== undefined) doc.description = set.description;
  if (set.tags !== undefined) doc.tags = set.tags;
  doc.pins = set.pins.map((p) => (p.version_id === undefined ? { rule_id: p.rule_id } : { rule_id: p.rule_id, version_id: p.version_id }));
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function assertRulesetId(id: string): void {
  if (documentKindOf(id) !== 'ruleset') throw new ApiError('INVALID_ID', `${id} is not a rule set id (rulesets/<name>.ruleset.json)`);
}

/** Every stored version of a set, oldest first, with its active and draft marks. */
export async function rulesetVersions(ctx: AppContext, id: string): Promise<RulesetVersionSummary[]> {
  const history = (await ctx.store.history(id)).filter((v) => !v.rejected);
  const active = history.find((v) => v.running)?.sequence ?? null;
  return history.map((v) => ({
    version_id: v.sequence,
    author: v.author.label,
    reason: v.reason,
    created_at: v.createdAt,
    active: v.sequence === active,
    draft: active === null || v.sequence > active,
  }));
}

/**
 * A rule set at a version (the active one when none is named), its pins resolved. A 404 names what is
 * missing: the set, or the version.
 */
export async function readRulesetVersion(
  ctx: AppContext,
  id: string,
  versionId?: number,
): Promise<{ view: RulesetVersionView; ruleset: Ruleset }> {
  assertRulesetId(id);
  const history = (await ctx.store.history(id)).filter((v) => !v.rejected);
  if (history.length === 0) throw notFound('ruleset', `no rule set ${id}`);
  const active = history.find((v) => v.running)?.sequence ?? null;
  const wanted = versionId ?? active;
  if (wanted === null) throw notFound('version', `${id} has no active version`);
  const stored = await ctx.store.getVersion(id, wanted);
  if (!stored || stored.rejected) throw notFound('version', `${id} has no version ${wanted}`);
  // The stored text was checked when saved; read it without the store so a rule disabled since still shows.
  const read = readRuleset(stored.text);
  if (!read.ok) throw new ApiError('RULESET_NOT_LOADABLE', `version ${wanted} of ${id} does not load`, { problems: read.problems });
  const lifecycle = lifecycleOf(ctx.store);
  const record = await lifecycle.of(id);
  const pins: PinView[] = [];
  for (const pin of read.ruleset.pins) {
    const history = (await ctx.store.history(pin.rule_id).catch(() => [] as DocumentVersion[])).filter((v) => !v.rejected);
    const running = history.find((v) => v.running)?.sequence ?? null;
    // A pin stored without a version (before pins were resolved when a set version is made) is never read as
    // the running version: that would let a rule edit change the set. It runs nothing, failing closed, and
    // counts as behind so update to latest pins it.
    const used = pin.version_id ?? null;
    const kind = documentKindOf(pin.rule_id) as RuleKind;
    pins.push({
      rule_id: pin.rule_id,
      version_id: pin.version_id ?? null,
      used_version: used,
      running_version: running,
      newer: running !== null && (pin.version_id === undefined || running > pin.version_id),
      kind,
      status: await lifecycle.statusOf(pin.rule_id),
      name: ruleName(pin.rule_id),
      description: kind === 'policy' ? null : await leadingComment(ctx, pin.rule_id, used ?? running),
      owner: history[0]?.author.label ?? null,
    });
  }
  const meta = 'changed_by' in record ? record : undefined;
  const view: RulesetVersionView = {
    id,
    version_id: wanted,
    active_version: active,
    draft: active === null || wanted > active,
    status: record.status,
    name: meta?.name ?? read.ruleset.name,
    pins,
  };
  const description = meta?.description ?? read.ruleset.description;
  const tags = meta?.tags ?? read.ruleset.tags;
  if (description !== undefined) view.description = description;
  if (tags !== undefined) view.tags = tags;
  if (meta?.replaced_by !== undefined) view.replaced_by = meta.replaced_by;
  return { view, ruleset: read.ruleset };
}

/** The rule's name: its file name without folder and kind suffix. */
function ruleName(id: string): string {
  const file = id.slice(id.lastIndexOf('/') + 1);
  return file.replace(/\.(policy\.json|rules\.ya?ml|co)$/, '');
}

/** The comment lines a sheet or Colang document opens with, as one sentence; null when it opens with none. */
async function leadingComment(ctx: AppContext, id: string, version: number | null): Promise<string | null> {
  if (version === null) return null;
  const stored = await ctx.store.getVersion(id, version).catch(() => undefined);
  if (!stored) return null;
  const lines: string[] = [];
  for (const line of stored.text.split(/\r?\n/)) {
    const comment = /^\s*#\s?(.*)$/.exec(line);
    if (comment === null) break;
    if ((comment[1] as string).trim() !== '') lines.push((comment[1] as string).trim());
  }
  return lines.length === 0 ? null : lines.join(' ').slice(0, 500);
}

/** Loads and compiles every pinned rule at the version it runs; one that does not load stops the run (409). */
export async function loadPinnedRules(ctx: AppContext, view: RulesetVersionView): Promise<LoadedRule[]> {
  const rules: LoadedRule[] = [];
  assertPinsResolved(view);
  for (const pin of view.pins) {
    const stored = pin.used_version === null ? undefined : await ctx.store.getVersion(pin.rule_id, pin.used_version);
    if (!stored) throw new ApiError('RULE_NOT_LOADABLE', `${pin.rule_id} has no version to run`, { rules: [pin.rule_id] });
    const base = { rule_id: pin.rule_id, version_id: stored.sequence, pinned: true };
    if (pin.kind === 'policy') {
      // The exact reader, as every stored document is read: a version that is not stated exactly does not load.
      const read = readJsonText(stored.text);
      if (!read.ok || read.diagnostics.length > 0) {
        throw new ApiError('RULE_NOT_LOADABLE', `version ${stored.sequence} of ${pin.rule_id} is not exact JSON`, {
          rules: [pin.rule_id],
        });
      }
      const compiled = compilePolicy(read.value);
      if (!compiled.ok) {
        throw new ApiError('RULE_NOT_LOADABLE', `version ${stored.sequence} of ${pin.rule_id} does not load`, {
          rules: [pin.rule_id],
        });
      }
      rules.push({ ...base, kind: 'policy', policy: compiled.policy });
    } else {
      const { text } = stored;
      const kind = pin.kind;
      // A big pinned sheet compiles on the compile thread, as the agent's own rulebook does (routes/gate.ts).
      const compiled = await offLoop(text.length, { rules: { text, kind, id: pin.rule_id } }, () =>
        compileRules(text, kind, undefined, pin.rule_id),
      );
      if (!compiled.ok) {
        throw new ApiError('RULE_NOT_LOADABLE', `version ${stored.sequence} of ${pin.rule_id} does not load`, {
          rules: [pin.rule_id],
        });
      }
      const rule: LoadedRule = { ...base, kind: pin.kind, rulebook: compiled.rulebook };
      if (compiled.overlay !== undefined) rule.overlay = compiled.overlay;
      rules.push(rule);
    }
  }
  return rules;
}

/** The workspace catalogue (catalogue.yaml) a rule set's calls are read against. */
export async function workspaceCatalogue(ctx: AppContext, id = 'catalogue.yaml') {
  const doc = await ctx.store.get(id);
  if (!doc) throw new ApiError('CATALOGUE_MISSING', `${id} has no running version: calls cannot be read without it`);
  const read = readCatalogue(doc.text, catalogueFormatOf(id) ?? 'yaml');
  if (!read.ok) throw new ApiError('CATALOGUE_NOT_LOADABLE', `${id} does not load`, { problems: read.problems });
  return read.catalogue;
}

/** A set may become (or stay) active only while the version that runs pins no draft rule. */
export function assertNoDraftRules(view: RulesetVersionView): void {
  const drafts = view.pins.filter((p) => p.status === 'draft').map((p) => p.rule_id);
  if (drafts.length > 0) {
    throw new ApiError('RULESET_PINS_DRAFT', `a set cannot be active while it pins a draft rule: ${drafts.join(', ')}`, {
      rules: drafts,
    });
  }
}

/**
 * A version stored with a pin that names no version (before pins were resolved when a version is made) runs
 * nothing and cannot be made to: it fails closed, naming the pins, until updated to latest (docs/rulesets.md).
 */
export function assertPinsResolved(view: RulesetVersionView): void {
  const unresolved = view.pins.filter((p) => p.version_id === null).map((p) => p.rule_id);
  if (unresolved.length > 0) {
    throw new ApiError(
      'RULESET_PIN_UNRESOLVED',
      `version ${view.version_id} of ${view.id} pins ${unresolved.join(', ')} without a version, so it runs nothing: update the pins to latest and activate that version`,
      { rules: unresolved },
    );
  }
}

/**
 * Whether a stored version of a rule set may become its active version by the documents routes: one whose
 * pins all name versions and, for an active set, that pins no draft rule (the rule-set route checks the same).
 */
export async function assertActivatable(ctx: AppContext, id: string, version: number): Promise<void> {
  const { view } = await readRulesetVersion(ctx, id, version);
  assertPinsResolved(view);
  if ((await lifecycleOf(ctx.store).statusOf(id)) === 'active') assertNoDraftRules(view);
}
