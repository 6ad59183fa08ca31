// One fault, one answer on every route (docs/api.md, "One vocabulary"), over real HTTP: a route only a policy
// has (trials, simulations of a stored version, decision maps, impact previews) asked of every other kind of
// stored document is 400 NOT_A_POLICY; a version that does not exist is 404 NOT_FOUND naming "version" on every
// route that reads one; a trial's id is judged like every document id.
import { documentKindOf } from '@tollgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const SHEET = 'sheets/support.rules.yaml';
const SUITE = { tools: [], examples: [] };

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const at = (id: string) => encodeURIComponent(id);

describe('a route only a policy has', () => {
  it('answers 400 NOT_A_POLICY for every stored document of another kind, on every such route', async () => {
    const others = (await s.ctx.store.list()).filter((id) => documentKindOf(id) !== 'policy');
    expect(others.length).toBeGreaterThan(3);
    const key = s.key('owner');
    for (const id of others) {
      const answers = [
        await s.call('POST', '/v1/trials', { key, body: { document: id, sequence: 1, sample_every: 1 } }),
        await s.call('GET', `/v1/trials/${at(id)}`, { key }),
        await s.call('POST', `/v1/trials/${at(id)}/stop`, { key }),
        await s.call('POST', '/v1/simulations', { key, body: { document: { id }, calls: { examples: SUITE } } }),
        await s.call('POST', '/v1/simulations', {
          key,
          body: { document: { id: POLICY }, candidate: { id, sequence: 1 }, calls: { examples: SUITE } },
        }),
        await s.call('GET', `/v1/documents/${at(id)}/decision-map`, { key }),
        await s.call('GET', `/v1/documents/${at(id)}/impact-preview?candidate=1`, { key }),
      ];
      for (const r of answers) expect([id, r.status, r.json?.error?.code], r.text).toEqual([id, 400, 'NOT_A_POLICY']);
    }
  });

  it('judges a trial id as every document id: INVALID_ID, NOT_A_POLICY, and 204 only for a policy without a trial', async () => {
    const key = s.key('viewer');
    for (const raw of ['%E0%A4%A', at('../settings.yaml'), at('policies/../settings.yaml'), 'x'.repeat(600)]) {
      const r = await s.call('GET', `/v1/trials/${raw}`, { key });
      expect([raw, r.status, r.json?.error?.code]).toEqual([raw, 400, 'INVALID_ID']);
    }
    const settings = await s.call('GET', `/v1/trials/${at('settings.yaml')}`, { key });
    expect([settings.status, settings.json.error.code]).toEqual([400, 'NOT_A_POLICY']);
    const none = await s.call('GET', `/v1/trials/${at(POLICY)}`, { key });
    expect([none.status, none.text]).toEqual([204, '']);
  });
});

describe('a version that does not exist', () => {
  it('is 404 NOT_FOUND with details.resource "version" on every route that reads one', async () => {
    const key = s.key('owner');
    const answers = {
      trial: await s.call('POST', '/v1/trials', { key, body: { document: POLICY, sequence: 99, sample_every: 1 } }),
      shadow: await s.call('POST', '/v1/shadows', { key, body: { document: SHEET, sequence: 99 } }),
      simulation: await s.call('POST', '/v1/simulations', {
        key,
        body: { document: { id: POLICY, sequence: 99 }, calls: { examples: SUITE } },
      }),
      map: await s.call('GET', `/v1/documents/${at(POLICY)}/decision-map?version=99`, { key }),
      preview: await s.call('GET', `/v1/documents/${at(POLICY)}/impact-preview?candidate=99`, { key }),
      version: await s.call('GET', `/v1/documents/${at(POLICY)}/versions/99`, { key }),
      activate: await s.call('POST', `/v1/documents/${at(POLICY)}/activate`, { key, body: { sequence: 99 } }),
      'trial of a policy never stored': await s.call('POST', '/v1/trials', {
        key,
        body: { document: 'policies/none.policy.json', sequence: 1, sample_every: 1 },
      }),
    };
    for (const [route, r] of Object.entries(answers)) {
      expect([route, r.status, r.json?.error?.code, r.json?.error?.details?.resource], r.text).toEqual([
        route,
        404,
        'NOT_FOUND',
        'version',
      ]);
    }
  });

  it('a document that does not exist names "document" where the route reverts it', async () => {
    const r = await s.call('POST', `/v1/documents/${at('policies/none.policy.json')}/revert`, { key: s.key('owner') });
    expect([r.status, r.json.error.code, r.json.error.details?.resource]).toEqual([404, 'NOT_FOUND', 'document']);
  });
});
