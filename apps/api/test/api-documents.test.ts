// The document routes over real HTTP on loopback against a fresh demo data folder: reading, history,
// edits through the seam (widening flagged, conflicts, refusals), activate and revert by role, and diffs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../src/server/event-hub.ts';
import { preconditionOf, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const ENC = encodeURIComponent(POLICY);
const DOC = `/v1/documents/${ENC}`;

let server: TestServer;
let events: ServerEvent[];

beforeEach(async () => {
  server = await startServer();
  events = [];
  server.ctx.events.subscribe((e) => events.push(e));
});

afterEach(async () => {
  await server.stop();
});

/**
 * The running refunds policy with the automatic refund limit moved to `limit`, the rest of the text kept:
 * refund-auto's `lte` and refund-approval's `gt` (as the demo's v2 does, docs/review.md).
 */
async function withAutoLimit(limit: string): Promise<string> {
  const res = await server.call('GET', DOC, { key: server.key('viewer') });
  const text = res.json.text as string;
  const edited = text
    .replace(/("id": "refund-auto",[^}]*"lte": ")[0-9.]+(")/, `$1${limit}$2`)
    .replace(/("id": "refund-approval",[^}]*"gt": ")[0-9.]+(")/, `$1${limit}$2`);
  if (edited === text) throw new Error(`the running policy already has refund-auto lte ${limit}`);
  return edited;
}

async function historyLength(id = ENC): Promise<number> {
  const res = await server.call('GET', `/v1/documents/${id}/history`, { key: server.key('owner') });
  return res.status === 404 ? 0 : (res.json.versions as unknown[]).length;
}

async function edit(limit: string, who: 'owner' | 'admin' | 'developer' = 'owner', extra: Record<string, unknown> = {}) {
  const content = await withAutoLimit(limit);
  // An edit that names its base in the body sends no If-Match (both must agree); the others send the ETag.
  const headers = 'based_on' in extra ? {} : (await preconditionOf(server, POLICY)).headers;
  return server.call('POST', `${DOC}/edits`, {
    key: server.key(who),
    headers,
    body: { content, reason: `auto limit ${limit}`, ...extra },
  });
}

describe('reading documents', () => {
  it('lists every demo document with its kind, status, running sequence and problems', async () => {
    const res = await server.call('GET', '/v1/documents', { key: server.key('viewer') });
    expect(res.status).toBe(200);
    const ids = res.json.documents.map((d: { id: string }) => d.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(
      expect.arrayContaining([
        'catalogue.yaml',
        'sheets/support.rules.yaml',
        POLICY,
        'rulesets/support.ruleset.json',
        'agents/support-bot.agent.yaml',
        'settings.yaml',
      ]),
    );
    const policy = res.json.documents.find((d: { id: string }) => d.id === POLICY);
    expect(policy).toEqual({ id: POLICY, kind: 'policy', status: 'running', running_sequence: 1, versions: 1, problems: [] });
    const agent = res.json.documents.find((d: { id: string }) => d.id === 'agents/support-bot.agent.yaml');
    expect(agent.kind).toBe('agent');
    expect(agent.problems).toEqual([]);
  });

  it('lists a newer candidate and reports a reference to a missing document as a problem', async () => {
    const ruleset = `${JSON.stringify({ name: 'Broken', pins: [{ rule_id: 'policies/missing.policy.json' }] })}\n`;
    // The store refuses it through the seam only when the validator knows the store; the list checks it against the store.
    await server.ctx.store.save({ id: 'rulesets/broken.ruleset.json', text: ruleset, author: { kind: 'system', label: 't' }, reason: 't' });
    const res = await server.call('GET', '/v1/documents', { key: server.key('developer') });
    const broken = res.json.documents.find((d: { id: string }) => d.id === 'rulesets/broken.ruleset.json');
    expect(broken.status).toBe('running');
    expect(broken.problems).toEqual([
      expect.objectContaining({ source: 'document', code: 'RULE_NOT_VISIBLE', severity: 'error', line: expect.any(Number) }),
    ]);
  });

  it('gets the running version and its text by a URL-encoded id', async () => {
    const res = await server.call('GET', DOC, { key: server.key('viewer') });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(POLICY);
    expect(res.json.kind).toBe('policy');
    expect(res.json.text).toContain('"refund-auto"');
    expect(res.json.version).toEqual({
      sequence: 1,
      author: { kind: 'system', label: 'demo seed' },
      reason: 'the demo workspace',
      based_on: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      running: true,
      rejected: false,
      problems: [],
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: Buffer.byteLength(res.json.text),
    });
  });

  it('answers 404 NOT_FOUND for an unknown document, history, version and diff', async () => {
    const key = server.key('viewer');
    const missing = encodeURIComponent('policies/nope.policy.json');
    for (const path of [
      `/v1/documents/${missing}`,
      `/v1/documents/${missing}/history`,
      `/v1/documents/${missing}/versions/1`,
      `${DOC}/versions/9`,
      `${DOC}/diff?from=9`,
      `${DOC}/diff?from=1&to=9`,
    ]) {
      const res = await server.call('GET', path, { key });
      expect(res.status, path).toBe(404);
      expect(res.json.error.code, path).toBe('NOT_FOUND');
    }
  });

  it('answers an id the store refuses with 4xx, never a 500', async () => {
    for (const id of ['../etc/passwd', '.tollgate/index.json', 'a\u0000b']) {
      const res = await server.call('GET', `/v1/documents/${encodeURIComponent(id)}`, { key: server.key('viewer') });
      expect(res.status, id).toBeGreaterThanOrEqual(400);
      expect(res.status, id).toBeLessThan(500);
      expect(res.json.error.code, id).toBe('INVALID_ID');
    }
  });

  it('refuses a sequence that is not a positive integer with 400', async () => {
    for (const path of [`${DOC}/versions/0`, `${DOC}/versions/abc`, `${DOC}/diff?from=-1`, `${DOC}/diff`, `${DOC}/diff?from=1&to=1.5`]) {
      const res = await server.call('GET', path, { key: server.key('viewer') });
      expect(res.status, path).toBe(400);
      expect(['INVALID_ID', 'INVALID_QUERY'], path).toContain(res.json.error.code);
    }
  });

  it('keeps history oldest first and serves each version with its text', async () => {
    expect((await edit('50')).status).toBe(201);
    expect((await edit('60')).status).toBe(201);
    const history = await server.call('GET', `${DOC}/history`, { key: server.key('viewer') });
    expect(history.status).toBe(200);
    expect(history.json.versions.map((v: { sequence: number; running: boolean }) => [v.sequence, v.running])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(history.json.versions[1]).toMatchObject({ author: { kind: 'person', label: 'olivia' }, reason: 'auto limit 50', based_on: 1 });
    // The version a revert runs: the one that ran before the running one.
    expect(history.json.revert_target).toBe(2);
    const v2 = await server.call('GET', `${DOC}/versions/2`, { key: server.key('viewer') });
    expect(v2.status).toBe(200);
    expect(v2.json.version.sequence).toBe(2);
    expect(JSON.parse(v2.json.text).rules.find((r: { id: string }) => r.id === 'refund-auto').amount.lte).toBe('50');
  });
});

describe('edits', () => {
  it('applies a widening edit with 201 and flags precisely what it widens', async () => {
    const res = await edit('250', 'admin');
    expect(res.status).toBe(201);
    expect(res.json.status).toBe('applied');
    expect(res.json.reasons).toEqual([]);
    const widened = 'refund.issue, amount in (100, 250] USD: require approval -> allow (widens)';
    expect(res.json.impact).toEqual({ widens_security: true, widened_subjects: [widened], changes: [widened] });
    expect(res.json.version).toMatchObject({ sequence: 2, running: true, based_on: 1, author: { kind: 'person', label: 'adam' } });
    expect(events).toContainEqual({ type: 'document', id: POLICY, sequence: 2 });
    const running = await server.call('GET', DOC, { key: server.key('viewer') });
    expect(running.json.version.sequence).toBe(2);
  });

  it('applies a narrowing edit by a developer without a flag', async () => {
    const res = await edit('50', 'developer', { based_on: 1 });
    expect(res.status).toBe(201);
    expect(res.json.status).toBe('applied');
    expect(res.json.impact).toEqual({
      widens_security: false,
      widened_subjects: [],
      changes: ['refund.issue, amount in (50, 100] USD: allow -> require approval (narrows)'],
    });
    expect(res.json.version.author).toEqual({ kind: 'developer', label: 'dev' });
  });

  it('answers a stale based_on with 409 conflict and stores nothing', async () => {
    expect((await edit('50', 'owner', { based_on: 1 })).status).toBe(201);
    const res = await edit('60', 'owner', { based_on: 1 });
    expect(res.status).toBe(409);
    expect(res.json.status).toBe('conflict');
    expect(res.json.version).toBeUndefined();
    expect(res.json.reasons[0]).toMatchObject({ code: 'EDIT_CONFLICT', message: expect.stringMatching(/version 2 is running/) });
    expect(await historyLength()).toBe(2);
  });

  it('refuses content that does not load with 422, its line and code in the reasons, and stores nothing', async () => {
    const content = '{\n  "schema": "tollgate/policy@1",\n  "default": "maybe",\n  "rules": []\n}\n';
    const res = await server.call('POST', `${DOC}/edits`, { key: server.key('owner'), body: { content, reason: 'bad', based_on: 1 } });
    expect(res.status).toBe(422);
    expect(res.json.status).toBe('refused');
    expect(res.json.version).toBeUndefined();
    expect(res.json.reasons).toMatchObject([{ code: expect.stringMatching(/^[A-Z_]+$/), severity: 'error', line: 3 }]);
    expect(await historyLength()).toBe(1);
    expect(events).toEqual([]);
  });

  it('refuses an id that names no kind of document with 422', async () => {
    const res = await server.call('POST', `/v1/documents/${encodeURIComponent('notes/readme.txt')}/edits`, {
      key: server.key('owner'),
      body: { content: 'hello', reason: 'x', based_on: null },
    });
    expect(res.status).toBe(422);
    expect(res.json.status).toBe('refused');
  });

  it('refuses an edit of a malformed id as 400 INVALID_ID, as every route does', async () => {
    for (const id of ['../etc/passwd', '.tollgate/index.json']) {
      const res = await server.call('POST', `/v1/documents/${encodeURIComponent(id)}/edits`, {
        key: server.key('owner'),
        body: { content: '{}', reason: 'x', based_on: null },
      });
      expect(res.status, id).toBe(400);
      expect(res.json.error.code, id).toBe('INVALID_ID');
    }
  });

  it('creates a new document through an edit', async () => {
    const id = 'settings.yaml';
    const res = await server.call('POST', `/v1/documents/${encodeURIComponent(id)}/edits`, {
      key: server.key('owner'),
      body: { content: 'approval_ttl_seconds: 3600\napproved_rulesets_only: false\n', reason: 'shorter approvals', based_on: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.json.version.sequence).toBe(2);
  });

  it('lets approvers, viewers and agents not edit (403) and stores nothing', async () => {
    const content = await withAutoLimit('250');
    for (const [who, code] of [
      ['approver', 'ROLE_REQUIRED'],
      ['viewer', 'ROLE_REQUIRED'],
      ['agent', 'MEMBER_REQUIRED'],
    ] as const) {
      const res = await server.call('POST', `${DOC}/edits`, { key: server.key(who), body: { content, reason: 'x' } });
      expect(res.status, who).toBe(403);
      expect(res.json.error.code, who).toBe(code);
    }
    expect(await historyLength()).toBe(1);
  });

  it('answers bad bodies with 4xx and changes nothing', async () => {
    const content = await withAutoLimit('250');
    const key = server.key('owner');
    const cases: { name: string; raw?: string; body?: unknown; headers?: Record<string, string>; code: string }[] = [
      { name: 'not JSON', raw: '{"content": ', headers: { 'content-type': 'application/json' }, code: 'INVALID_JSON' },
      { name: 'content a number', body: { content: 5, reason: 'x' }, code: 'INVALID_BODY' },
      { name: 'based_on a string', body: { content, reason: 'x', based_on: '1' }, code: 'INVALID_BODY' },
      { name: 'unknown member', body: { content, reason: 'x', author: 'mallory' }, code: 'INVALID_BODY' },
      { name: 'missing content', body: { reason: 'x' }, code: 'INVALID_BODY' },
      { name: 'missing reason', body: { content }, code: 'INVALID_BODY' },
      { name: 'an array', body: [content], code: 'INVALID_BODY' },
      { name: 'no body', code: 'INVALID_BODY' },
      {
        name: 'not JSON content type',
        raw: JSON.stringify({ content, reason: 'x' }),
        headers: { 'content-type': 'text/plain' },
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    ];
    for (const c of cases) {
      const res = await server.call('POST', `${DOC}/edits`, { key, body: c.body, raw: c.raw, headers: c.headers });
      expect(res.status, c.name).toBeGreaterThanOrEqual(400);
      expect(res.status, c.name).toBeLessThan(500);
      expect(res.json.error.code, c.name).toBe(c.code);
    }
    const unknown = await server.call('POST', `${DOC}/edits`, { key, body: { content, reason: 'x', extra: 1 } });
    expect(unknown.json.error.details.issues[0]).toMatchObject({ code: 'unrecognized_keys' });
    expect(await historyLength()).toBe(1);
    expect(events).toEqual([]);
  });
});

describe('activate and revert', () => {
  it('lets an owner activate an older version and revert it, publishing each', async () => {
    expect((await edit('50')).status).toBe(201);
    const activated = await server.call('POST', `${DOC}/activate`, { key: server.key('owner'), body: { sequence: 1 } });
    expect(activated.status).toBe(200);
    expect(activated.json).toMatchObject({ id: POLICY, version: { sequence: 1, running: true } });
    expect((await server.call('GET', DOC, { key: server.key('viewer') })).json.version.sequence).toBe(1);
    const revertTarget = async () => (await server.call('GET', `${DOC}/history`, { key: server.key('viewer') })).json.revert_target;
    expect(await revertTarget()).toBe(2);
    const reverted = await server.call('POST', `${DOC}/revert`, { key: server.key('admin') });
    expect(reverted.status).toBe(200);
    expect(reverted.json.version).toMatchObject({ sequence: 2, running: true });
    expect(await revertTarget()).toBe(1);
    expect(events).toEqual([
      { type: 'document', id: POLICY, sequence: 2 },
      { type: 'document', id: POLICY, sequence: 1 },
      { type: 'document', id: POLICY, sequence: 2 },
    ]);
  });

  it('refuses developers, approvers, viewers and agents (403) and changes nothing', async () => {
    expect((await edit('50')).status).toBe(201);
    for (const [who, code] of [
      ['developer', 'ROLE_REQUIRED'],
      ['approver', 'ROLE_REQUIRED'],
      ['viewer', 'ROLE_REQUIRED'],
      ['agent', 'MEMBER_REQUIRED'],
    ] as const) {
      const a = await server.call('POST', `${DOC}/activate`, { key: server.key(who), body: { sequence: 1 } });
      expect(a.status, who).toBe(403);
      expect(a.json.error.code, who).toBe(code);
      const r = await server.call('POST', `${DOC}/revert`, { key: server.key(who) });
      expect(r.status, who).toBe(403);
      expect(r.json.error.code, who).toBe(code);
    }
    expect((await server.call('GET', DOC, { key: server.key('viewer') })).json.version.sequence).toBe(2);
  });

  it('maps store refusals: unknown version 404, nothing to revert 409, rejected version 409, invalid id 400', async () => {
    const key = server.key('owner');
    const missing = await server.call('POST', `${DOC}/activate`, { key, body: { sequence: 7 } });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
    const nothing = await server.call('POST', `${DOC}/revert`, { key });
    expect(nothing.status).toBe(409);
    expect(nothing.json.error.code).toBe('NOTHING_TO_REVERT');
    // A working copy that did not load is kept as a rejected version; it can never run.
    await server.ctx.store.save({
      id: POLICY,
      text: '{',
      author: { kind: 'external', label: 'hand' },
      reason: 'hand edit',
      rejected: ['not JSON'],
    });
    const rejected = await server.call('POST', `${DOC}/activate`, { key, body: { sequence: 2 } });
    expect(rejected.status).toBe(409);
    expect(rejected.json.error.code).toBe('REJECTED_VERSION');
    const invalid = await server.call('POST', `/v1/documents/${encodeURIComponent('../etc/passwd')}/activate`, {
      key,
      body: { sequence: 1 },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.code).toBe('INVALID_ID');
    const list = await server.call('GET', '/v1/documents', { key });
    const policy = list.json.documents.find((d: { id: string }) => d.id === POLICY);
    expect(policy).toMatchObject({ status: 'newer_rejected', running_sequence: 1, versions: 2 });
    expect(policy.problems).toEqual([{ source: 'version', code: 'REJECTED_VERSION', severity: 'error', message: 'not JSON' }]);
  });

  it('refuses bad activate bodies with 400', async () => {
    const key = server.key('owner');
    for (const body of [{}, { sequence: '1' }, { sequence: 0 }, { sequence: 1.5 }, { sequence: 1, force: true }]) {
      const res = await server.call('POST', `${DOC}/activate`, { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('INVALID_BODY');
    }
    expect(events).toEqual([]);
  });
});

describe('diff', () => {
  it('diffs a version against the running one with the impact of moving to it', async () => {
    expect((await edit('250')).status).toBe(201);
    const res = await server.call('GET', `${DOC}/diff?from=1`, { key: server.key('viewer') });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: POLICY, from: 1, to: 2 });
    const widened = 'refund.issue, amount in (100, 250] USD: require approval -> allow (widens)';
    expect(res.json.impact).toEqual({ widens_security: true, widened_subjects: [widened], changes: [widened] });
    const lines = res.json.unified.split('\n');
    expect(lines).toContain(`--- ${POLICY}\tversion 1`);
    expect(lines).toContain(`+++ ${POLICY}\tversion 2`);
    expect(lines.filter((l: string) => /^[-+] /.test(l))).toEqual([
      '-        "gt": "100",',
      '+        "gt": "250",',
      '-        "lte": "100"',
      '+        "lte": "250"',
    ]);
  });

  it("diffs the demo's revert (v2 with an automatic limit of 250, back to v1's 100) as narrowing, by the calls it changes", async () => {
    expect((await edit('250')).status).toBe(201);
    const back = await server.call('GET', `${DOC}/diff?from=2&to=1`, { key: server.key('developer') });
    expect(back.status).toBe(200);
    expect(back.json.impact).toEqual({
      widens_security: false,
      widened_subjects: [],
      changes: ['refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)'],
    });
    const same = await server.call('GET', `${DOC}/diff?from=1&to=1`, { key: server.key('developer') });
    expect(same.json.unified).not.toMatch(/^@@/m);
  });
});

describe('auth', () => {
  it('answers 401 without a key or with a wrong one, 403 for an agent reading', async () => {
    for (const path of ['/v1/documents', DOC, `${DOC}/history`, `${DOC}/versions/1`, `${DOC}/diff?from=1`]) {
      const none = await server.call('GET', path);
      expect(none.status, path).toBe(401);
      expect(none.json.error.code).toBe('MISSING_KEY');
      const wrong = await server.call('GET', path, { key: 'tg_nope' });
      expect(wrong.status, path).toBe(401);
      expect(wrong.json.error.code).toBe('INVALID_KEY');
      const agent = await server.call('GET', path, { key: server.key('agent') });
      expect(agent.status, path).toBe(403);
      expect(agent.json.error.code).toBe('MEMBER_REQUIRED');
    }
    const edit401 = await server.call('POST', `${DOC}/edits`, { body: { content: '{}', reason: 'x' } });
    expect(edit401.status).toBe(401);
    expect(await historyLength()).toBe(1);
  });

  it('describes the routes in the OpenAPI document', async () => {
    const res = await server.call('GET', '/v1/openapi.json');
    // Paths are relative to /v1 (the router is described before it is mounted).
    const paths = Object.keys(res.json.paths).map((p) => p.replace(/^\/v1/, ''));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/documents',
        '/documents/{id}',
        '/documents/{id}/history',
        '/documents/{id}/versions/{sequence}',
        '/documents/{id}/edits',
        '/documents/{id}/activate',
        '/documents/{id}/revert',
        '/documents/{id}/diff',
      ]),
    );
    expect(res.json.paths['/documents/{id}/edits']?.post?.responses).toHaveProperty('422');
  });
});
