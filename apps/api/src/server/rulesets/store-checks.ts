// The checks a new text of a rule set or the settings file gets against the store before the edit seam sees
// it (the seam's validators read the text alone): a set's pins, resolved to versions as the version is made,
// and the approved list's rule-set versions (docs/rulesets.md; docs/documents.md, "Settings").
import {
  catalogueFormatOf,
  type Diagnostic,
  documentKindOf,
  type ReferenceContext,
  readCatalogue,
  readRuleset,
  readSettings,
  readUpstreams,
  resolvePins,
  UPSTREAMS_ID,
} from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { pinContextFor, pinnedIdsOf, rulesetText } from './ruleset-versions.ts';

export type StoreCheck =
  | { ok: true; content: string; notes: string[] }
  | {
      ok: false;
      problems: Diagnostic[];
    };

/**
 * A new text checked against the store. A rule set's pins that name no version take their rule's running
 * version, so the text to save may differ from the one sent (`content`, with a note saying so); other kinds
 * pass unchanged.
 *
 * @example
 * await checkAgainstStore(ctx, 'settings.yaml', 'approved_rulesets_only: true\napproved_rulesets: [rulesets/x.ruleset.json@9]\n')
 * // { ok: false, problems: [{ code: 'REFERENCE_NOT_FOUND', path: '/approved_rulesets/0', ... }] }
 */
export async function checkAgainstStore(ctx: AppContext, id: string, content: string): Promise<StoreCheck> {
  const kind = documentKindOf(id);
  if (kind === 'ruleset') {
    const context = await pinContextFor(ctx, pinnedIdsOf(content));
    const read = readRuleset(content, context);
    if (!read.ok) return { ok: false, problems: read.problems };
    const open = read.ruleset.pins.filter((p) => p.version_id === undefined);
    if (open.length === 0) return { ok: true, content, notes: [] };
    const resolved = resolvePins(read.ruleset, context);
    const taken = resolved.pins.filter((p) => open.some((o) => o.rule_id === p.rule_id)).map((p) => `${p.rule_id}@${p.version_id}`);
    return {
      ok: true,
      content: rulesetText(resolved),
      notes: [`Pins without a version are pinned at their rules' running versions: ${taken.join(', ')}.`],
    };
  }
  if (kind === 'settings') {
    const read = readSettings(content, await ruleSetVersions(ctx));
    return read.ok ? { ok: true, content, notes: [] } : { ok: false, problems: read.problems };
  }
  if (kind === 'catalogue') {
    // A tool's upstream.server must name a server of the running upstreams document, once there is one.
    const upstreams = await ctx.store.get(UPSTREAMS_ID).catch(() => undefined);
    const read = upstreams ? readUpstreams(upstreams.text) : undefined;
    if (!read?.ok) return { ok: true, content, notes: [] };
    const servers = new Set(read.upstreams.servers.map((s) => s.name));
    const catalogue = readCatalogue(content, catalogueFormatOf(id) ?? 'yaml', { upstreams: servers });
    return catalogue.ok ? { ok: true, content, notes: [] } : { ok: false, problems: catalogue.problems };
  }
  return { ok: true, content, notes: [] };
}

/** Whether a rule set, or one of its versions, is stored (loadable), as the approved list's check asks. */
async function ruleSetVersions(ctx: AppContext): Promise<ReferenceContext> {
  const versions = new Map<string, number[]>();
  for (const id of await ctx.store.list()) {
    if (documentKindOf(id) !== 'ruleset') continue;
    const history = await ctx.store.history(id).catch(() => []);
    versions.set(
      id,
      history.filter((v) => !v.rejected).map((v) => v.sequence),
    );
  }
  return {
    exists: (id, sequence) => {
      const stored = versions.get(id) ?? [];
      return sequence === undefined ? stored.length > 0 : stored.includes(sequence);
    },
  };
}
