// Routes: rule sets (docs/rulesets.md). A set's pins are versioned in the store: every change of pins saves
// the next version as a draft, which runs for agents once activated, every pin at a version (a pin sent
// without one takes its rule's running version then). Status, metadata and the active version change without
// a new version (lifecycle state). Running a set judges every pinned rule in parallel, for one pass or fail;
// a run that fails midway records nothing. The changes themselves live in ../rulesets/ (ruleset-changes.ts,
// ruleset-patch.ts); the operations in rulesets/specs.ts.
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { lifecycleOf } from '../rulesets/lifecycle.ts';
import { archiveRuleset, createRuleset, restoreRuleset, setRuleStatus, updateToLatest } from '../rulesets/ruleset-changes.ts';
import { patchRuleset } from '../rulesets/ruleset-patch.ts';
import { readRulesetVersion } from '../rulesets/ruleset-versions.ts';
import { fullView, withCounts } from '../rulesets/ruleset-view.ts';
import { RULE_TIMEOUT_MS, runRulesetVersion } from '../rulesets/run-version.ts';
import { requiredPrecondition, rulesetEtagHeaders } from './preconditions.ts';
import { editorOf, memberOf } from './route-kit.ts';
import {
  archiveRoute,
  createRulesetRoute,
  getRoute,
  latestRoute,
  listRoute,
  restoreRoute,
  statusRoute,
  updateRoute,
  validateRoute,
} from './rulesets/specs.ts';

export function rulesetRoutes(options: { ruleTimeoutMs?: number } = {}) {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const ctx = c.get('ctx');
    const wanted = c.req.valid('query').status ?? 'active';
    const ids = (await ctx.store.list()).filter((id) => id.startsWith('rulesets/') && id.endsWith('.ruleset.json'));
    const rulesets = [];
    const lifecycle = lifecycleOf(ctx.store);
    for (const id of ids) {
      if (wanted !== 'all' && (await lifecycle.statusOf(id)) !== wanted) continue;
      const read = await readRulesetVersion(ctx, id).catch((err: unknown) => {
        if (err instanceof ApiError) return undefined; // no active version, or a text that no longer loads
        throw err;
      });
      if (read) rulesets.push(await withCounts(ctx, read.view));
    }
    return c.json({ rulesets }, 200);
  });

  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { version_id } = c.req.valid('query');
    const ctx = c.get('ctx');
    const view = await fullView(ctx, id, version_id === undefined ? undefined : Number(version_id));
    return c.json(view, 200, await rulesetEtagHeaders(ctx.store, id));
  });

  app.openapi(createRulesetRoute, async (c) => {
    const member = editorOf(c);
    const ctx = c.get('ctx');
    const view = await createRuleset(ctx, c.req.valid('json'), member);
    const location = `/v1/rulesets/${encodeURIComponent(view.id)}`;
    return c.json(view, 201, { ...(await rulesetEtagHeaders(ctx.store, view.id)), Location: location });
  });

  app.openapi(updateRoute, async (c) => {
    const member = editorOf(c);
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const b = c.req.valid('json');
    const header = c.req.valid('header')['if-match'];
    const { ifMatch, revision } = await requiredPrecondition(ctx.store, id, header, b.based_on, { revisions: true });
    const view = await patchRuleset(ctx, id, b, member, ifMatch ?? (b.based_on as number), revision);
    return c.json(view, 200, await rulesetEtagHeaders(ctx.store, id));
  });

  app.openapi(latestRoute, async (c) => {
    const member = editorOf(c);
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    return c.json(await updateToLatest(ctx, id, c.req.valid('json'), member), 200, await rulesetEtagHeaders(ctx.store, id));
  });

  app.openapi(archiveRoute, async (c) => {
    const member = memberOf(c);
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    return c.json(await archiveRuleset(ctx, id, c.req.valid('json'), member), 200, await rulesetEtagHeaders(ctx.store, id));
  });

  app.openapi(restoreRoute, async (c) => {
    const member = memberOf(c);
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    return c.json(await restoreRuleset(ctx, id, member), 200, await rulesetEtagHeaders(ctx.store, id));
  });

  app.openapi(validateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const b = c.req.valid('json');
    const run = await runRulesetVersion(c.get('ctx'), id, b.call, {
      ...(b.version_id === undefined ? {} : { versionId: b.version_id }),
      timeoutMs: options.ruleTimeoutMs ?? RULE_TIMEOUT_MS,
    });
    return c.json(run, 200);
  });

  app.openapi(statusRoute, async (c) => {
    const member = memberOf(c);
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    await setRuleStatus(c.get('ctx'), id, status, member);
    return c.json({ id, status }, 200);
  });

  return app;
}
