// GET /v1/openapi.json is OpenAPI 3.1 generated from the routes' zod schemas, and lists every declared
// route; GET /v1/reference is an HTML page over it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './server-harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** The stateless, events, simulation and trial routes, as OpenAPI paths (relative to /v1, where the API is mounted). */
const ROUTES: [string, string][] = [
  ['post', '/rule-sheets/compile'],
  ['post', '/policies/validate'],
  ['post', '/policies/evaluate'],
  ['post', '/rules/check'],
  ['get', '/policies/templates'],
  ['post', '/policies/templates/{name}'],
  ['get', '/events'],
  ['post', '/simulations'],
  ['post', '/trials'],
  ['get', '/trials/{document}'],
  ['post', '/trials/{document}/stop'],
];

describe('GET /v1/openapi.json', () => {
  it('is OpenAPI 3.1 and lists every route with its request body and answers', async () => {
    const r = await server.call('GET', '/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    expect(r.json.info.title).toBe('Tollgate API');
    const paths = r.json.paths as Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
    for (const [method, path] of ROUTES) {
      expect(paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(Object.keys(paths[path]?.[method]?.responses ?? {})).toContain(method === 'post' && path === '/trials' ? '201' : '200');
    }
    expect(paths['/rule-sheets/compile']?.post?.requestBody).toMatchObject({ required: true });
    expect(r.json.components.schemas.RuleSheetCompileBody.additionalProperties).toBe(false);
    expect(Object.keys(r.json.components.schemas.RuleSheetCompileBody.properties).sort()).toEqual([
      'catalogue',
      'catalogue_format',
      'colang',
      'sheet',
      'source',
    ]);
    expect(Object.keys(paths['/events']?.get?.responses?.['200'] as object)).toContain('content');
  });

  it('lists the routes the other route modules declare too, each operation with at least one answer', async () => {
    const r = await server.call('GET', '/v1/openapi.json');
    const operations = Object.entries(r.json.paths as Record<string, Record<string, { responses: object }>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(ROUTES.length);
    for (const { path, op } of operations) {
      expect(path.startsWith('/') && !path.startsWith('/v1/'), path).toBe(true);
      expect(Object.keys(op.responses).length, path).toBeGreaterThan(0);
    }
  });

  it('needs no key; the reference page is HTML naming the routes', async () => {
    const page = await server.call('GET', '/v1/reference');
    expect(page.status).toBe(200);
    const res = await fetch(`${server.url}/v1/reference`);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<html/i);
    expect(page.text).toContain('/v1/simulations');
  });
});
