// The route kit holds every route to its description: an undeclared query parameter is refused by name, a
// required body that is missing is refused, an unknown path is NO_ROUTE, and the headers every
// authenticated answer carries (docs/api.md, "Headers").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './server-harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('the route kit', () => {
  it('refuses a query parameter the route does not declare, naming it, on routes without a query too', async () => {
    const owner = server.key('owner');
    for (const path of ['/v1/documents?colour=red', '/v1/decisions?colour=red', '/v1/policies/templates?colour=red']) {
      const r = await server.call('GET', path, { key: owner });
      expect(r.status, `${path}: ${r.text}`).toBe(400);
      expect(r.json.error.code).toBe('INVALID_QUERY');
      expect(r.json.error.message).toContain('colour');
    }
    const ok = await server.call('GET', '/v1/decisions?limit=5', { key: owner });
    expect(ok.status).toBe(200);
  });

  it('refuses a missing body where the route requires one', async () => {
    const r = await server.call('POST', '/v1/policies/validate', { key: server.key('owner') });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error).toEqual({ code: 'INVALID_BODY', message: 'a body is required' });
  });

  it('answers NO_ROUTE for a path no route answers, with no-store and the bearer challenge on 401', async () => {
    const r = await server.call('GET', '/v1/no-such-thing', { key: server.key('owner') });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('NO_ROUTE');
    const outside = await server.call('GET', '/nowhere');
    expect(outside.json.error.code).toBe('NO_ROUTE');
    const res = await fetch(`${server.url}/v1/documents`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const wrong = await fetch(`${server.url}/v1/documents`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const ok = await fetch(`${server.url}/v1/documents`, { headers: { authorization: `Bearer ${server.key('viewer')}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a 201 with Location, where what was made is read', async () => {
    const id = 'policies/refunds.policy.json';
    const running = await server.ctx.store.get(id);
    const saved = await server.ctx.store.save({
      id,
      text: running?.text.replace('"version"', '"version" ') ?? '',
      author: { kind: 'person', label: 'test' },
      reason: 'a candidate',
      activate: false,
    });
    const res = await fetch(`${server.url}/v1/trials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key('owner')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: id, sequence: saved.sequence, sample_rate: 0.5 }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const location = res.headers.get('location') as string;
    expect(location).toBe(`/v1/trials/${encodeURIComponent(id)}`);
    const read = await server.call('GET', location, { key: server.key('viewer') });
    expect(read.json).toMatchObject({ document: id, candidate: saved.sequence });
  });
});
