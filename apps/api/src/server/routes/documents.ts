// Routes: documents. Each route is declared with createRoute and zod schemas (documents/specs.ts), so it is
// described in /v1/openapi.json. Ids hold slashes and travel URL-encoded as one path segment
// (/v1/documents/policies%2Frefunds.policy.json).
import { analyzeImpact, documentKindOf, type Impact } from '@tollgate/engine';
import type { StoredDocument } from '@tollgate/store';
import { createTwoFilesPatch } from 'diff';
import { offLoop } from '../compile-thread.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { assertNotSelfReview, assertOwnerChangesReview, recordActivation } from '../four-eyes/activation.ts';
import { assertPolicyRuns, assertRulesetRuns } from '../nodes/language-gate.ts';
import { router } from '../openapi.ts';
import { policyImpactOnPool } from '../review/review-pool.ts';
import { lifecycleOf } from '../rulesets/lifecycle.ts';
import { assertActivatable, readRulesetVersion } from '../rulesets/ruleset-versions.ts';
import { latestActivations } from '../state/activations/model.ts';
import type { MemberRow } from '../state/members/model.ts';
import { assertDocumentId, refuseDamaged, refuseUnknownApprovers, sequenceOf, version } from './documents/checks.ts';
import { activateRoute, diffRoute, editRoute, getRoute, historyRoute, listRoute, revertRoute, versionRoute } from './documents/specs.ts';
import { submitEdit } from './documents/submit-edit.ts';
import { documentSummaries } from './documents/summaries.ts';
import { activatedByJson, documentJson, impactJson, versionJson } from './documents/wire.ts';
import { etag, etagHeaders, optionalPrecondition, requiredPrecondition } from './preconditions.ts';
import { memberOf, notFound, storeError, storeErrorFor } from './route-kit.ts';

/** The document routes: list, read, history, versions, edits, activate, revert and diff. */
export function documentRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => c.json({ documents: await documentSummaries(c.get('ctx')) }, 200));

  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    assertDocumentId(id);
    const doc = await c.get('ctx').store.get(id).catch(storeError);
    if (!doc) {
      await refuseDamaged(c.get('ctx'), id, undefined);
      throw notFound('document', `no version of ${id} runs`);
    }
    return c.json(documentJson(doc), 200, await etagHeaders(c.get('ctx').store, id));
  });

  app.openapi(historyRoute, async (c) => {
    const { id } = c.req.valid('param');
    assertDocumentId(id);
    const history = await c.get('ctx').store.history(id).catch(storeError);
    if (history.length === 0) throw notFound('document', `${id} has no versions`);
    const revertTo = (await c.get('ctx').store.revertTarget(id).catch(storeError)) ?? null;
    const activated = latestActivations(await c.get('ctx').state.activationsOf(id));
    const versions = history.map((v) => ({ ...versionJson(v), activated_by: activatedByJson(activated.get(v.sequence)) }));
    return c.json({ id, versions, revert_target: revertTo }, 200, await etagHeaders(c.get('ctx').store, id));
  });

  app.openapi(versionRoute, async (c) => {
    const { id, sequence } = c.req.valid('param');
    assertDocumentId(id);
    const ctx = c.get('ctx');
    return c.json(documentJson(await version(ctx, id, sequenceOf(sequence))), 200, await etagHeaders(ctx.store, id));
  });

  app.openapi(editRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = memberOf(c);
    const { id } = c.req.valid('param');
    assertDocumentId(id);
    // Content over the seam's limit is the seam's to answer: a refused outcome with TOO_LARGE (docs/documents.md).
    const body = c.req.valid('json');
    const { ifMatch } = await requiredPrecondition(ctx.store, id, c.req.valid('header')['if-match'], body.based_on);
    const model = c.get('principal').grants.includes('model');
    const { outcome, result } = await submitEdit(ctx, id, body, { member, model }, ifMatch);
    // A stored version is the newest at its write; else the tag is read now.
    const tag = outcome.version ? { ETag: etag(outcome.version.sequence) } : await etagHeaders(ctx.store, id);
    if (outcome.retryAfterSeconds !== undefined) {
      return c.json(result, 503, { ...tag, 'Retry-After': String(outcome.retryAfterSeconds) });
    }
    switch (outcome.status) {
      case 'applied':
      case 'saved_not_running':
        return c.json(result, 201, { ...tag, Location: `/v1/documents/${encodeURIComponent(id)}/versions/${outcome.version?.sequence}` });
      case 'conflict':
        return c.json(result, 409, tag);
      case 'refused':
        return c.json(result, 422, tag);
      case 'rejected':
        return c.json(result, 403, tag);
    }
  });

  app.openapi(activateRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    assertDocumentId(id);
    const { sequence } = c.req.valid('json');
    const member = memberOf(c);
    const precondition = await optionalPrecondition(ctx.store, id, c.req.valid('header')['if-match']);
    const candidate = await version(ctx, id, sequence);
    await assertFourEyes(ctx, candidate, member);
    if (documentKindOf(id) === 'ruleset') {
      await assertActivatable(ctx, id, sequence);
      await assertRulesetRuns(ctx, (await readRulesetVersion(ctx, id, sequence)).view);
    }
    if (documentKindOf(id) === 'policy') {
      const text = candidate.text;
      await refuseUnknownApprovers(id, text, ctx);
      await assertPolicyRuns(ctx, id, sequence, text);
    }
    const v = await ctx.store.activate(id, sequence, precondition).catch(storeErrorFor('version'));
    await recordActivation(ctx, id, v.sequence, member);
    ctx.events.publish({ type: 'document', id, sequence: v.sequence });
    return c.json({ id, version: versionJson(v) }, 200, await etagHeaders(ctx.store, id));
  });

  app.openapi(revertRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    assertDocumentId(id);
    const precondition = await optionalPrecondition(ctx.store, id, c.req.valid('header')['if-match']);
    if (documentKindOf(id) === 'ruleset' && (await lifecycleOf(ctx.store).statusOf(id)) === 'active') {
      // The version a revert lands on is known only once it is made: an active set moves by activating a
      // version, which checks its pins first.
      throw new ApiError('RULESET_REVERT_ACTIVE', `${id} is active: activate the version to run instead, so its pins are checked`);
    }
    // The version a revert lands on runs (a set in test runs too): a live gateway must decide its language revision.
    const target = await ctx.store.revertTarget(id).catch(storeError);
    const member = memberOf(c);
    // A revert runs a version as an activation does: four eyes weigh it the same way.
    if (target !== undefined) await assertFourEyes(ctx, await version(ctx, id, target), member);
    if (target !== undefined && documentKindOf(id) === 'policy')
      await assertPolicyRuns(ctx, id, target, (await version(ctx, id, target)).text);
    if (target !== undefined && documentKindOf(id) === 'ruleset') {
      // A set version that does not load runs nothing, so only one that loads is weighed.
      const set = await readRulesetVersion(ctx, id, target).catch(() => undefined);
      if (set) await assertRulesetRuns(ctx, set.view);
    }
    const v = await ctx.store.revert(id, precondition).catch(storeError);
    await recordActivation(ctx, id, v.sequence, member);
    ctx.events.publish({ type: 'document', id, sequence: v.sequence });
    return c.json({ id, version: versionJson(v) }, 200, await etagHeaders(ctx.store, id));
  });

  app.openapi(diffRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    assertDocumentId(id);
    const query = c.req.valid('query');
    const a = await version(ctx, id, sequenceOf(query.from));
    let b: StoredDocument | undefined;
    if (query.to === undefined) {
      b = await ctx.store.get(id).catch(storeError);
      if (!b) throw notFound('version', `no version of ${id} runs; give to=`);
    } else {
      b = await version(ctx, id, sequenceOf(query.to));
    }
    const kind = documentKindOf(id);
    // A policy's impact is its decision diff, on the review pool as an edit's is; the others on the compile thread for big texts.
    const impact =
      kind === undefined
        ? { widensSecurity: false, widenedSubjects: [] }
        : kind === 'policy'
          ? await policyImpactOnPool(a.text, b.text, `${id} versions ${a.sequence} -> ${b.sequence}: impact`)
          : await offLoop<Impact>(a.text.length + b.text.length, { impact: { kind, running: a.text, text: b.text } }, () =>
              analyzeImpact(kind, a.text, b.text),
            );
    const unified = createTwoFilesPatch(id, id, a.text, b.text, `version ${a.sequence}`, `version ${b.sequence}`);
    return c.json({ id, from: a.sequence, to: b.sequence, unified, impact: impactJson(impact) }, 200);
  });

  return app;
}

/** Four eyes on a version about to run (four-eyes/activation.ts): only an owner changes the setting; never its widening author. */
async function assertFourEyes(ctx: AppContext, candidate: StoredDocument, member: MemberRow): Promise<void> {
  await assertOwnerChangesReview(ctx, candidate.id, candidate.text, member);
  await assertNotSelfReview(ctx, candidate, member);
}
