// PATCH of a rule set: new pins save the next version as a draft (with the metadata sent); otherwise status,
// metadata, the replacement and the active version change without a new version (lifecycle state), each
// checked as the version that would run requires (docs/rulesets.md).
import type { RuleStatus } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { assertNotSelfReview, recordActivation } from '../four-eyes/activation.ts';
import { assertRulesetRuns } from '../nodes/language-gate.ts';
import { storeError, storeErrorFor } from '../routes/route-kit.ts';
import type { MemberRow, Role } from '../state/members/model.ts';
import { lifecycleOf } from './lifecycle.ts';
import { assertReplacement, authorOf, type Member, saveDraftVersion } from './ruleset-changes.ts';
import { assertNoDraftRules, assertPinsResolved, checkRulesetText, readRulesetVersion, rulesetText } from './ruleset-versions.ts';
import { fullView } from './ruleset-view.ts';

export interface RulesetPatch {
  pins?: { rule_id: string; version_id?: number }[];
  name?: string;
  description?: string;
  tags?: string[];
  status?: RuleStatus;
  replaced_by?: string;
  active_version?: number;
  reason?: string;
  /** The newest version the change was made from, when If-Match is not sent. */
  based_on?: number;
}

/** Who may change a set's status, replacement or active version (an author may change pins and metadata). */
const STEWARDS: readonly Role[] = ['owner', 'admin'];

/**
 * Applies a PATCH to the set and answers it after the change. `ifMatch` (the newest version the writer
 * read) is checked first and again by the store with each write, under its lock. `revision` (the metadata
 * changes counted in the If-Match tag, absent with based_on) is checked with a metadata change, in the same step.
 */
export async function patchRuleset(
  ctx: AppContext,
  id: string,
  b: RulesetPatch,
  member: Member & Pick<MemberRow, 'id'>,
  ifMatch: number,
  revision?: number,
) {
  const current = await readRulesetVersion(ctx, id);
  const newest = (await ctx.store.history(id).catch(storeError)).at(-1)?.sequence ?? null;
  if (newest !== ifMatch) {
    throw new ApiError('PRECONDITION_FAILED', `${id} changed since version ${ifMatch}: its newest version is ${newest ?? 'none'}`, {
      current: newest,
    });
  }
  const lifecycle = lifecycleOf(ctx.store);
  const touchesLifecycle = b.status !== undefined || b.active_version !== undefined || b.replaced_by !== undefined;
  if (touchesLifecycle && !STEWARDS.includes(member.role)) {
    throw new ApiError('ROLE_REQUIRED', `this needs the role ${STEWARDS.join(' or ')}; you are ${member.role}`);
  }
  // Which version runs, and whether the set runs at all, is a person's to change (route-kit.ts, people()).
  if (touchesLifecycle && member.model) {
    throw new ApiError('PERSON_REQUIRED', "a model's key cannot make a version run; a person activates it");
  }

  if (b.pins !== undefined) {
    if (touchesLifecycle) {
      throw new ApiError('PINS_WITH_STATUS', 'new pins save a draft version: change status or the active version in a second request');
    }
    const set = {
      name: b.name ?? current.view.name,
      description: b.description ?? current.view.description,
      tags: b.tags ?? current.view.tags,
      pins: b.pins,
    };
    const version = await saveDraftVersion(ctx, id, set, authorOf(member), b.reason ?? 'pins changed', ifMatch);
    // The metadata now lives in the new version's text; overrides would hide it.
    await lifecycle.update(id, { name: undefined, description: undefined, tags: undefined }, member.name, ctx.now());
    return fullView(ctx, id, version);
  }

  const record = await lifecycle.of(id);
  if (record.status === 'archived' && b.status === undefined) {
    throw new ApiError('RULESET_ARCHIVED', `${id} is archived: restore it before changing it`);
  }
  let activeVersion = current.view.version_id;
  if (b.active_version !== undefined && b.active_version !== current.view.active_version) {
    const target = await readRulesetVersion(ctx, id, b.active_version);
    const willBeActive = (b.status ?? record.status) === 'active';
    assertPinsResolved(target.view);
    if (willBeActive) assertNoDraftRules(target.view);
    await assertRulesetRuns(ctx, target.view);
    // Four eyes: a set version that widens what runs is made active by another member than its author.
    const candidate = await ctx.store.getVersion(id, b.active_version).catch(storeError);
    if (candidate) await assertNotSelfReview(ctx, candidate, member);
    await ctx.store.activate(id, b.active_version, { ifMatch }).catch(storeErrorFor('version'));
    await recordActivation(ctx, id, b.active_version, member);
    activeVersion = b.active_version;
    ctx.events.publish({ type: 'document', id, sequence: b.active_version });
  }
  const change: Parameters<typeof lifecycle.update>[1] = {};
  if (b.name !== undefined) change.name = b.name;
  if (b.description !== undefined) change.description = b.description;
  if (b.tags !== undefined) change.tags = b.tags;
  if (b.status !== undefined) {
    if (b.status === 'active' || b.status === 'test') {
      // The version that would run must be runnable: every pin at a version, and (active) no draft rule.
      const running = (await readRulesetVersion(ctx, id, activeVersion)).view;
      assertPinsResolved(running);
      if (b.status === 'active') assertNoDraftRules(running);
      await assertRulesetRuns(ctx, running);
    }
    change.status = b.status;
    if (b.status === 'archived') change.restores_to = record.status === 'archived' ? undefined : record.status;
    else change.replaced_by = undefined;
  }
  if (b.replaced_by !== undefined) {
    if ((b.status ?? record.status) !== 'archived') {
      throw new ApiError('REPLACED_BY_NOT_ARCHIVED', 'replaced_by names the replacement of an archived set: archive it too');
    }
    await assertReplacement(ctx, id, b.replaced_by);
    change.replaced_by = b.replaced_by;
  }
  if (b.name !== undefined || b.description !== undefined || b.tags !== undefined) {
    // Metadata is checked as the text would be, so a name too long is refused the same way.
    await checkRulesetText(
      ctx,
      rulesetText({
        ...current.ruleset,
        name: b.name ?? current.view.name,
        description: b.description ?? current.view.description,
        tags: b.tags ?? current.view.tags,
      }),
    );
  }
  // A metadata change moves the tag, so of two made from one read one applies (docs/api.md); other changes check
  // the version part alone, as a tag read before any metadata change names it.
  const renames = b.name !== undefined || b.description !== undefined || b.tags !== undefined;
  const checked = renames && revision !== undefined ? { ifMatch, revision } : { ifMatch };
  // An archive's status to restore to is the one under the store's lock, so a status changed meanwhile is kept.
  const made =
    b.status === 'archived'
      ? (now: { status: RuleStatus }) => ({ ...change, restores_to: now.status === 'archived' ? undefined : now.status })
      : change;
  if (Object.keys(change).length > 0) await lifecycle.update(id, made, member.name, ctx.now(), checked).catch(storeError);
  return fullView(ctx, id);
}
