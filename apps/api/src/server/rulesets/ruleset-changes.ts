// Changes to a rule set other than PATCH (ruleset-patch.ts): creating it, saving the next version of its
// pins as a draft, moving pins to their rules' running versions, archiving and restoring it, and setting a
// rule document's status. Each checks what it changes against the store and answers the set after the change.
import type { RuleStatus } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { assertRulesetRuns } from '../nodes/language-gate.ts';
import { notFound, storeError } from '../routes/route-kit.ts';
import type { MemberRow, Role } from '../state/members/model.ts';
import { hasStatus, lifecycleOf } from './lifecycle.ts';
import { assertRulesetId, checkRulesetText, readRulesetVersion, rulesetText, rulesetVersions } from './ruleset-versions.ts';
import { fullView } from './ruleset-view.ts';

/** Who changes a set: a member, through a model's key when `model` (docs/documents.md, "Edits through the API"). */
export type Member = Pick<MemberRow, 'name' | 'role'> & { model?: boolean };

export function authorOf(member: { name: string; role: Role; model?: boolean }) {
  const kind = member.model ? ('model' as const) : member.role === 'developer' ? ('developer' as const) : ('person' as const);
  return { kind, label: member.name };
}

export async function assertReplacement(ctx: AppContext, id: string, replacement: string): Promise<void> {
  if (replacement === id) throw new ApiError('INVALID_REPLACEMENT', 'a rule set cannot replace itself');
  assertRulesetId(replacement);
  const history = await ctx.store.history(replacement).catch(() => []);
  if (!history.some((v) => !v.rejected)) throw notFound('ruleset', `no rule set ${replacement} to point agents at`);
}

/** Saves the next version of a set's pins, as a draft: it runs once someone activates it. */
export async function saveDraftVersion(
  ctx: AppContext,
  id: string,
  set: { name: string; description?: string; tags?: string[]; pins: { rule_id: string; version_id?: number }[] },
  author: { kind: 'person' | 'developer' | 'model'; label: string },
  reason: string,
  ifMatch?: number,
): Promise<number> {
  const text = rulesetText(await checkRulesetText(ctx, rulesetText(set)));
  const saved = await ctx.store
    .save({ id, text, author, reason, activate: false, ...(ifMatch === undefined ? {} : { ifMatch }) })
    .catch(storeError);
  ctx.events.publish({ type: 'document', id, sequence: saved.sequence });
  return saved.sequence;
}

export interface NewRuleset {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  pins: { rule_id: string; version_id?: number }[];
  reason?: string;
}

/** Creates a set: its first version is its active version, and the set starts as a draft, so no agent runs it. */
export async function createRuleset(ctx: AppContext, b: NewRuleset, member: Member) {
  assertRulesetId(b.id);
  if ((await ctx.store.history(b.id).catch(storeError)).length > 0) {
    throw new ApiError('RULESET_EXISTS', `${b.id} exists already; change its pins with PATCH`);
  }
  const text = rulesetText(await checkRulesetText(ctx, rulesetText(b)));
  const saved = await ctx.store
    .save({ id: b.id, text, author: authorOf(member), reason: b.reason ?? 'created', basedOn: null })
    .catch(storeError);
  await lifecycleOf(ctx.store).update(b.id, { status: 'draft' }, member.name, ctx.now());
  ctx.events.publish({ type: 'document', id: b.id, sequence: saved.sequence });
  return fullView(ctx, b.id, saved.sequence);
}

/** Re-pins the rules named (every pin behind when none are) to their running versions, as the next draft version. */
export async function updateToLatest(ctx: AppContext, id: string, b: { rule_ids?: string[]; reason?: string }, member: Member) {
  // The newest version is the base, so a second update builds on a draft not yet activated.
  const versions = await rulesetVersions(ctx, id).catch(storeError);
  const newest = versions[versions.length - 1];
  if (!newest) throw notFound('ruleset', `no rule set ${id}`);
  const base = await readRulesetVersion(ctx, id, newest.version_id);
  if ((await lifecycleOf(ctx.store).statusOf(id)) === 'archived')
    throw new ApiError('RULESET_ARCHIVED', `${id} is archived: restore it first`);
  const unknown = (b.rule_ids ?? []).filter((r) => !base.view.pins.some((p) => p.rule_id === r));
  if (unknown.length > 0) throw new ApiError('PIN_NOT_FOUND', `the set pins no ${unknown.join(', ')}`, { rules: unknown });
  const wanted = (pin: { rule_id: string }) => b.rule_ids === undefined || b.rule_ids.includes(pin.rule_id);
  const moved = base.view.pins.filter((p) => wanted(p) && p.newer);
  if (moved.length === 0) throw new ApiError('PINS_CURRENT', 'every pin named is at its rule’s running version already');
  const pins = base.ruleset.pins.map((pin) => {
    const view = moved.find((p) => p.rule_id === pin.rule_id);
    return view?.running_version != null ? { rule_id: pin.rule_id, version_id: view.running_version } : pin;
  });
  const reason = b.reason ?? `update to latest: ${moved.map((p) => `${p.rule_id} ${p.version_id} -> ${p.running_version}`).join(', ')}`;
  const version = await saveDraftVersion(ctx, id, { ...base.ruleset, pins }, authorOf(member), reason);
  return fullView(ctx, id, version);
}

/** Archives a set, naming the replacement agents are pointed at. */
export async function archiveRuleset(ctx: AppContext, id: string, b: { replaced_by?: string }, member: Member) {
  await readRulesetVersion(ctx, id);
  const lifecycle = lifecycleOf(ctx.store);
  const record = await lifecycle.of(id);
  if (record.status === 'archived') throw new ApiError('RULESET_ARCHIVED', `${id} is archived already`);
  if (b.replaced_by !== undefined) await assertReplacement(ctx, id, b.replaced_by);
  // The status it restores to is the one under the store's lock, so a status changed meanwhile is the one kept.
  await lifecycle
    .update(
      id,
      (current) => {
        if (current.status === 'archived') throw new ApiError('RULESET_ARCHIVED', `${id} is archived already`);
        return { status: 'archived', restores_to: current.status, replaced_by: b.replaced_by };
      },
      member.name,
      ctx.now(),
    )
    .catch(storeError);
  return fullView(ctx, id);
}

/** Restores an archived set to the status it had: active only while its active version pins no draft rule. */
export async function restoreRuleset(ctx: AppContext, id: string, member: Member) {
  const { view } = await readRulesetVersion(ctx, id);
  const lifecycle = lifecycleOf(ctx.store);
  const record = await lifecycle.of(id);
  if (record.status !== 'archived') throw new ApiError('RULESET_NOT_ARCHIVED', `${id} is ${record.status}, not archived`);
  let status: RuleStatus = 'restores_to' in record && record.restores_to !== undefined ? record.restores_to : 'draft';
  if (status === 'active' && view.pins.some((p) => p.status === 'draft')) status = 'draft';
  if (status === 'active' || status === 'test') await assertRulesetRuns(ctx, view);
  await lifecycle.update(
    id,
    (current) => {
      // Checked again under the store's lock: of two restores at once, or a restore and a status change, one applies.
      if (current.status !== 'archived') throw new ApiError('RULESET_NOT_ARCHIVED', `${id} is ${current.status}, not archived`);
      return { status, restores_to: undefined, replaced_by: undefined };
    },
    member.name,
    ctx.now(),
  );
  return fullView(ctx, id);
}

/** Sets a rule document's (policy, sheet, Colang) status; rule sets change theirs through PATCH. */
export async function setRuleStatus(ctx: AppContext, id: string, status: RuleStatus, member: Member): Promise<void> {
  if (!hasStatus(id) || id.startsWith('rulesets/')) {
    throw new ApiError(
      'INVALID_ID',
      `${id} is not a rule document (a policy, sheet or Colang file); rule sets change status through /v1/rulesets`,
    );
  }
  const history = await ctx.store.history(id).catch(storeError);
  if (!history.some((v) => !v.rejected)) throw notFound('rule', `no rule ${id}`);
  const lifecycle = lifecycleOf(ctx.store);
  const unusable = (s: RuleStatus) => s === 'disabled' || s === 'archived';
  // A policy usable again makes every running set that pins it run it again: the language gate weighs those sets.
  if (id.startsWith('policies/') && unusable(await lifecycle.statusOf(id)) && !unusable(status)) await assertPinningSetsRun(ctx, id);
  await lifecycle.update(id, { status }, member.name, ctx.now());
}

/** Refuses (GATEWAYS_NOT_UPGRADED) while a set in active or test that pins `rule` pins a policy a live gateway cannot decide. */
async function assertPinningSetsRun(ctx: AppContext, rule: string): Promise<void> {
  for (const setId of await ctx.store.list().catch(storeError)) {
    if (!setId.startsWith('rulesets/')) continue;
    const set = await readRulesetVersion(ctx, setId).catch(() => undefined);
    if (!set || !(set.view.status === 'active' || set.view.status === 'test')) continue;
    if (set.view.pins.some((p) => p.rule_id === rule)) await assertRulesetRuns(ctx, set.view);
  }
}
