// Four eyes on widening edits (docs/security.md, "Four eyes"), over real HTTP on both state stores: with
// review_widening_edits off a widening edit applies; on, it is stored as a version that does not run and its author
// cannot activate it (SELF_REVIEW_FORBIDDEN), nor revert to it, nor make a rule-set version of theirs active, while
// another owner or admin can, and the history names both people; only an owner turns the setting on or off, by an
// edit or by activating a stored settings version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { type LooseJson, okJson, patchRuleset, postEdit, preconditionOf, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const SETTINGS = 'settings.yaml';
const path = (id: string) => `/v1/documents/${encodeURIComponent(id)}`;

/** The demo's refunds policy with refund-auto allowing refunds up to `limit` (and refund-approval from there). */
function refundsAutoUpTo(limit: string): string {
  const doc = JSON.parse(REFUNDS_POLICY_TEXT);
  for (const rule of doc.rules) {
    if (rule.id === 'refund-auto') rule.amount.lte = limit;
    if (rule.id === 'refund-approval') rule.amount.gt = limit;
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const settingsText = (review: boolean, ttl = 86400) =>
  `approval_ttl_seconds: ${ttl}\napproved_rulesets_only: false\nreview_widening_edits: ${review}\n`;

let s: TestServer;
/** A second owner, to activate what the demo's owner wrote. */
let otherOwner: string;
beforeAll(async () => {
  s = await startServer();
  const oscar = await s.ctx.state.createMember('oscar', 'owner');
  otherOwner = await s.ctx.state.createKey({ member: oscar.id }, ['catalogue']);
});
afterAll(async () => {
  await s.stop();
});

async function activate(id: string, sequence: number, key: string) {
  const { headers } = await preconditionOf(s, id);
  return s.call('POST', `${path(id)}/activate`, { key, headers, body: { sequence } });
}

async function running(id: string): Promise<LooseJson> {
  return okJson(s.call('GET', path(id), { key: s.key('viewer') }));
}

async function history(id: string): Promise<LooseJson[]> {
  return (await okJson(s.call('GET', `${path(id)}/history`, { key: s.key('viewer') }))).versions;
}

describe('four eyes on widening edits', () => {
  it('off by default: a widening edit applies at once, flagged, and nothing is held', async () => {
    const edit = await postEdit(s, POLICY, s.key('admin'), { content: refundsAutoUpTo('150'), reason: 'raise to 150' });
    expect(edit.status, edit.text).toBe(201);
    expect(edit.json.status).toBe('applied');
    expect(edit.json.held_for_review).toBeUndefined();
    expect(edit.json.impact.widens_security).toBe(true);
    expect((await running(POLICY)).version.sequence).toBe(edit.json.version.sequence);
  });

  it('only an owner turns it on: an admin or developer is refused OWNER_REQUIRED, nothing stored', async () => {
    const before = (await history(SETTINGS)).length;
    for (const role of ['admin', 'developer'] as const) {
      const refused = await postEdit(s, SETTINGS, s.key(role), { content: settingsText(true), reason: 'four eyes' });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json.error.code).toBe('OWNER_REQUIRED');
    }
    expect(await history(SETTINGS)).toHaveLength(before);
    // An admin's settings edit that leaves the setting as it is goes through.
    const other = await postEdit(s, SETTINGS, s.key('admin'), { content: settingsText(false, 3600), reason: 'shorter approvals' });
    expect(other.status, other.text).toBe(201);
    const on = await postEdit(s, SETTINGS, s.key('owner'), { content: settingsText(true, 3600), reason: 'four eyes' });
    expect(on.status, on.text).toBe(201);
    expect(on.json.status).toBe('applied');
  });

  it("on: a widening edit is held, does not run, and its author's activation is SELF_REVIEW_FORBIDDEN", async () => {
    const before = (await running(POLICY)).version.sequence;
    const edit = await postEdit(s, POLICY, s.key('admin'), { content: refundsAutoUpTo('500'), reason: 'raise to 500' });
    expect(edit.status, edit.text).toBe(201);
    expect(edit.json.status).toBe('saved_not_running');
    expect(edit.json.held_for_review).toBe(true);
    expect(edit.json.reasons.map((r: { code: string }) => r.code)).toEqual(['HELD_FOR_REVIEW']);
    expect(edit.json.impact.widens_security).toBe(true);
    expect(edit.json.impact.widened_subjects).toEqual(['refund.issue, amount in (150, 500] USD: require approval -> allow (widens)']);
    expect((await running(POLICY)).version.sequence).toBe(before);

    const own = await activate(POLICY, edit.json.version.sequence, s.key('admin'));
    expect(own.status, own.text).toBe(403);
    expect(own.json.error.code).toBe('SELF_REVIEW_FORBIDDEN');
    expect(own.json.error.details.widened_subjects).toEqual(edit.json.impact.widened_subjects);
    expect((await running(POLICY)).version.sequence).toBe(before);

    const other = await activate(POLICY, edit.json.version.sequence, s.key('owner'));
    expect(other.status, other.text).toBe(200);
    expect((await running(POLICY)).version.sequence).toBe(edit.json.version.sequence);
    const held = (await history(POLICY)).find((v) => v.sequence === edit.json.version.sequence);
    const owner = s.keys.members.find((m) => m.role === 'owner');
    expect(held.author).toEqual({ kind: 'person', label: 'adam' });
    expect(held.activated_by).toMatchObject({ id: owner?.id, name: 'olivia' });
    expect(held.running).toBe(true);
    // A version that applied as it was saved names no activator.
    expect((await history(POLICY))[0].activated_by).toBeNull();
  });

  it('on: an edit that widens nothing applies as it does with the setting off', async () => {
    const edit = await postEdit(s, POLICY, s.key('admin'), { content: refundsAutoUpTo('200'), reason: 'back to 200' });
    expect(edit.status, edit.text).toBe(201);
    expect(edit.json.status).toBe('applied');
    expect(edit.json.impact.widens_security).toBe(false);
    expect(edit.json.held_for_review).toBeUndefined();
  });

  it("on: a revert to the author's own widening version is refused for the author, run by another", async () => {
    // Running: adam's 200 (applied); the revert target: adam's 500, which widens over 200.
    const refused = await s.call('POST', `${path(POLICY)}/revert`, {
      key: s.key('admin'),
      headers: (await preconditionOf(s, POLICY)).headers,
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.error.code).toBe('SELF_REVIEW_FORBIDDEN');
    const reverted = await s.call('POST', `${path(POLICY)}/revert`, {
      key: s.key('owner'),
      headers: (await preconditionOf(s, POLICY)).headers,
    });
    expect(reverted.status, reverted.text).toBe(200);
    expect((await history(POLICY)).find((v) => v.sequence === reverted.json.version.sequence)?.activated_by?.name).toBe('olivia');
  });

  it("on: a rule set's widening version is made active by another member than its author", async () => {
    const SUPPORT = 'rulesets/support.ruleset.json';
    // The admin moves the set's policy pin to the running (wider) version: a draft version authored by them.
    const draft = await okJson(
      s.call('POST', `/v1/rulesets/${encodeURIComponent(SUPPORT)}/update-to-latest`, { key: s.key('admin'), body: {} }),
    );
    expect(draft).toMatchObject({ draft: true, active_version: 1 });
    const own = await patchRuleset(s, SUPPORT, { active_version: draft.version_id }, s.key('admin'));
    expect(own.status, own.text).toBe(403);
    expect(own.json.error.code).toBe('SELF_REVIEW_FORBIDDEN');
    const other = await patchRuleset(s, SUPPORT, { active_version: draft.version_id }, s.key('owner'));
    expect(other.status, other.text).toBe(200);
    expect(other.json.active_version).toBe(draft.version_id);
    expect((await history(SUPPORT)).find((v) => v.sequence === draft.version_id)?.activated_by?.name).toBe('olivia');
  });

  it('turning it off widens: held, and only another owner activates it', async () => {
    const off = await postEdit(s, SETTINGS, s.key('owner'), { content: settingsText(false, 3600), reason: 'no more four eyes' });
    expect(off.status, off.text).toBe(201);
    expect(off.json.status).toBe('saved_not_running');
    expect(off.json.impact.widened_subjects).toEqual(['review_widening_edits true -> false']);
    const sequence = off.json.version.sequence;
    // Its author may not; an admin may not change the setting at all; another owner may.
    expect((await activate(SETTINGS, sequence, s.key('owner'))).json.error.code).toBe('SELF_REVIEW_FORBIDDEN');
    expect((await activate(SETTINGS, sequence, s.key('admin'))).json.error.code).toBe('OWNER_REQUIRED');
    const activated = await activate(SETTINGS, sequence, otherOwner);
    expect(activated.status, activated.text).toBe(200);
    expect((await history(SETTINGS)).find((v) => v.sequence === sequence)?.activated_by?.name).toBe('oscar');
    // Off again: a widening edit applies at once.
    const edit = await postEdit(s, POLICY, s.key('admin'), { content: refundsAutoUpTo('900'), reason: 'raise to 900' });
    expect(edit.json.status).toBe('applied');
  });
});
