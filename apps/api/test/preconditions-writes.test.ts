// Preconditions over real HTTP (docs/api.md, "Preconditions and paging"): every document and rule-set answer
// carries its ETag (the newest stored version; a rule set's with its metadata changes since); writers that
// read the same version race, and exactly one writes, the others are refused (412, or 409 for based_on) with
// nothing else stored; a write without a precondition is refused (428).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOCUMENTS } from '../src/server/demo.ts';
import { type LooseJson, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const RULESET = 'rulesets/support.ruleset.json';
const DOC = `/v1/documents/${encodeURIComponent(POLICY)}`;
const SET = `/v1/rulesets/${encodeURIComponent(RULESET)}`;

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

/** GETs with the owner key and answers the body with the ETag header. */
async function read(path: string): Promise<{ status: number; json: LooseJson; etag: string | null }> {
  const res = await fetch(s.url + path, { headers: { authorization: `Bearer ${s.key('owner')}` } });
  return { status: res.status, json: await res.json(), etag: res.headers.get('etag') };
}

/** The refunds policy with its auto-refund limit set to `limit`: a loadable edit. */
const refundsWith = (limit: number) => (DEMO_DOCUMENTS[POLICY] as string).replaceAll('"100"', `"${limit}"`);

async function edit(content: string, precondition: { ifMatch?: string; basedOn?: number | null }) {
  const headers: Record<string, string> = precondition.ifMatch === undefined ? {} : { 'if-match': precondition.ifMatch };
  const body = { content, reason: 'race', ...(precondition.basedOn === undefined ? {} : { based_on: precondition.basedOn }) };
  return s.call('POST', `${DOC}/edits`, { key: s.key('owner'), headers, body });
}

const historyLength = async () => (await read(`${DOC}/history`)).json.versions.length as number;

describe('ETag', () => {
  it('is the newest stored version on every document answer, and moves with each write', async () => {
    const before = await read(DOC);
    const n = (await historyLength()) as number;
    expect(before.etag).toBe(`"${n}"`);
    expect((await read(`${DOC}/history`)).etag).toBe(`"${n}"`);
    expect((await read(`${DOC}/versions/1`)).etag).toBe(`"${n}"`);
    const saved = await fetch(`${s.url}${DOC}/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('owner')}`, 'content-type': 'application/json', 'if-match': `"${n}"` },
      body: JSON.stringify({ content: refundsWith(150), reason: 'etag' }),
    });
    expect(saved.status).toBe(201);
    expect(saved.headers.get('etag')).toBe(`"${n + 1}"`);
    const activated = await fetch(`${s.url}${DOC}/activate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('owner')}`, 'content-type': 'application/json', 'if-match': `"${n + 1}"` },
      body: JSON.stringify({ sequence: n }),
    });
    expect(activated.status).toBe(200);
    // Activation stores no version: the tag stays.
    expect(activated.headers.get('etag')).toBe(`"${n + 1}"`);
    const reverted = await fetch(`${s.url}${DOC}/revert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('owner')}`, 'if-match': `"${n + 1}"` },
    });
    expect(reverted.status).toBe(200);
    expect(reverted.headers.get('etag')).toBe(`"${n + 1}"`);
  });

  it('is on every rule-set answer', async () => {
    const got = await read(SET);
    expect(got.status).toBe(200);
    expect(got.etag).toBe(`"${got.json.versions.at(-1).version_id}"`);
    const created = await s.call('POST', '/v1/rulesets', {
      key: s.key('owner'),
      body: { id: 'rulesets/tagged.ruleset.json', name: 'Tagged', pins: [{ rule_id: POLICY }] },
    });
    expect(created.status).toBe(201);
    const tagged = await read(`/v1/rulesets/${encodeURIComponent('rulesets/tagged.ruleset.json')}`);
    expect(tagged.etag).toBe('"1"');
    const patched = await fetch(`${s.url}/v1/rulesets/${encodeURIComponent('rulesets/tagged.ruleset.json')}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${s.key('owner')}`, 'content-type': 'application/json', 'if-match': '"1"' },
      body: JSON.stringify({ name: 'Tagged again' }),
    });
    expect(patched.status).toBe(200);
    // A rename stores no version but moves the tag (docs/api.md): its metadata changes since version 1, after a dot.
    expect(patched.headers.get('etag')).toBe('"1.1"');
    const archived = await fetch(`${s.url}/v1/rulesets/${encodeURIComponent('rulesets/tagged.ruleset.json')}/archive`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('owner')}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(archived.headers.get('etag')).toBe('"1.1"');
    const restored = await fetch(`${s.url}/v1/rulesets/${encodeURIComponent('rulesets/tagged.ruleset.json')}/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key('owner')}` },
    });
    expect(restored.headers.get('etag')).toBe('"1.1"');
  });
});

describe('required preconditions', () => {
  it('refuses an edit with neither If-Match nor based_on, or with If-Match: *, as 428, storing nothing', async () => {
    const before = await historyLength();
    const none = await edit(refundsWith(70), {});
    expect(none.status).toBe(428);
    expect(none.json.error.code).toBe('PRECONDITION_REQUIRED');
    const star = await edit(refundsWith(70), { ifMatch: '*' });
    expect(star.status).toBe(428);
    expect(await historyLength()).toBe(before);
  });

  it('refuses a PATCH of a rule set with neither as 428, changing nothing', async () => {
    const before = await read(SET);
    const res = await s.call('PATCH', SET, { key: s.key('owner'), body: { name: 'Renamed' } });
    expect(res.status).toBe(428);
    expect(res.json.error.code).toBe('PRECONDITION_REQUIRED');
    expect((await read(SET)).json.name).toBe(before.json.name);
  });

  it('checks If-Match and based_on each in its own sense when both are sent', async () => {
    // A newer version is stored while an older one runs: the editor's text is the running version's
    // (based_on) and the document it read is the newest (If-Match); both hold, so the edit applies.
    const n = await historyLength();
    const activated = await s.call('POST', `${DOC}/activate`, {
      key: s.key('owner'),
      headers: { 'if-match': `"${n}"` },
      body: { sequence: 1 },
    });
    expect(activated.status).toBe(200);
    const stale = await edit(refundsWith(71), { ifMatch: `"${n - 1}"`, basedOn: 1 });
    expect(stale.status).toBe(412);
    expect(await historyLength()).toBe(n);
    const moved = await edit(refundsWith(71), { ifMatch: `"${n}"`, basedOn: n });
    expect(moved.status).toBe(409);
    expect(moved.json.status).toBe('conflict');
    expect(await historyLength()).toBe(n);
    const both = await edit(refundsWith(71), { ifMatch: `"${n}"`, basedOn: 1 });
    expect(both.status, JSON.stringify(both.json)).toBe(201);
    expect(await historyLength()).toBe(n + 1);
  });

  it('refuses a stale If-Match on an edit, activate and revert as 412 with the current tag, changing nothing', async () => {
    const n = await historyLength();
    const running = (await read(DOC)).json.version.sequence;
    for (const stale of [`"${n - 1}"`, `"${n + 5}"`, `W/"${n}"`, `"${n}", "${n + 1}"`]) {
      const e = await edit(refundsWith(72), { ifMatch: stale });
      expect(e.status, stale).toBe(412);
      expect(e.json.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { current: n } });
      const a = await s.call('POST', `${DOC}/activate`, { key: s.key('owner'), headers: { 'if-match': stale }, body: { sequence: 1 } });
      expect(a.status, stale).toBe(412);
      expect(a.json.error.details.current).toBe(n);
      const r = await s.call('POST', `${DOC}/revert`, { key: s.key('owner'), headers: { 'if-match': stale } });
      expect(r.status, stale).toBe(412);
    }
    expect(await historyLength()).toBe(n);
    expect((await read(DOC)).json.version.sequence).toBe(running);
  });

  it('refuses a stale If-Match on a rule-set PATCH as 412, changing nothing', async () => {
    const before = await read(SET);
    const res = await s.call('PATCH', SET, { key: s.key('owner'), headers: { 'if-match': '"999"' }, body: { name: 'Stale' } });
    expect(res.status).toBe(412);
    expect(res.json.error.details.current).toBe(before.json.versions.at(-1).version_id);
    expect((await read(SET)).json.name).toBe(before.json.name);
  });
});

describe('writers racing from the same read', () => {
  it('three parallel edits with the same If-Match: exactly one applied, the others 412, nothing else stored', async () => {
    const { etag } = await read(DOC);
    const n = await historyLength();
    const results = await Promise.all([81, 82, 83].map((limit) => edit(refundsWith(limit), { ifMatch: etag as string })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 412, 412]);
    expect(await historyLength()).toBe(n + 1);
    const applied = results.find((r) => r.status === 201);
    expect((await read(DOC)).json.text).toBe(refundsWith([81, 82, 83][results.indexOf(applied as (typeof results)[number])] as number));
  });

  it('three parallel edits with the same based_on: exactly one applied, the others 409 conflict', async () => {
    const running = (await read(DOC)).json.version.sequence as number;
    const n = await historyLength();
    const results = await Promise.all([84, 85, 86].map((limit) => edit(refundsWith(limit), { basedOn: running })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.status === 'conflict')).toBe(true);
    expect(await historyLength()).toBe(n + 1);
  });

  it('two parallel PATCHes of a rule set with the same If-Match: exactly one succeeds', async () => {
    const before = await read(SET);
    const pins = (pinned: { rule_id: string; version_id: number | null }[]) =>
      pinned.map((p) => ({ rule_id: p.rule_id, ...(p.version_id === null ? {} : { version_id: p.version_id }) }));
    const body = (name: string) => ({ pins: pins(before.json.pins), name });
    const results = await Promise.all(
      ['First', 'Second'].map((name) =>
        s.call('PATCH', SET, { key: s.key('owner'), headers: { 'if-match': before.etag as string }, body: body(name) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    const after = await read(SET);
    expect(after.json.versions.length).toBe(before.json.versions.length + 1);
    expect(after.etag).not.toBe(before.etag);
  });

  it('any number of concurrent writers from the same read, however they name it, applies exactly one', async () => {
    let limit = 200;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('if-match', 'based_on', 'both'), { minLength: 2, maxLength: 5 }), async (writers) => {
        const { etag, json } = await read(DOC);
        const running = json.version.sequence as number;
        const newest = Number((etag as string).slice(1, -1));
        const n = await historyLength();
        const results = await Promise.all(
          writers.map((how) => {
            limit += 1;
            if (how === 'based_on') return edit(refundsWith(limit), { basedOn: running });
            if (how === 'both') return edit(refundsWith(limit), { ifMatch: etag as string, basedOn: newest });
            return edit(refundsWith(limit), { ifMatch: etag as string });
          }),
        );
        const statuses = results.map((r) => r.status);
        expect(statuses.filter((st) => st === 201)).toHaveLength(1);
        expect(statuses.every((st) => st === 201 || st === 409 || st === 412)).toBe(true);
        expect(await historyLength()).toBe(n + 1);
      }),
      { numRuns: 12 },
    );
  });
});
