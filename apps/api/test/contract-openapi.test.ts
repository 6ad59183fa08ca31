// The served /v1/openapi.json held to third-party tooling: Redocly's recommended ruleset finds no error,
// and requests generated from the document for every operation (no key, an undeclared query parameter, a
// malformed integer path parameter, a missing body, a body of the wrong type, another media type) answer
// a 4xx it declares, in the one Error shape (checked with Ajv against the document's own Error schema),
// never a 5xx. Every code answered is one of API_CODES with its status, and Error.code is exactly them.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { API_CODES, type ApiCode } from '@tollgate/engine';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentKey, type LooseJson, startServer, type TestServer } from './server-harness.ts';

interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema?: { type?: string; example?: unknown } }[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<string, unknown>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, LooseJson> } };

let server: TestServer;
let doc: Doc;
let validError: (body: unknown) => boolean;
let errorsOf: () => unknown;
/** Every code the API answered in this file, with the statuses it came with. */
const answered = new Map<string, Set<number>>();

beforeAll(async () => {
  server = await startServer();
  doc = (await server.call('GET', '/v1/openapi.json')).json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'tollgate-openapi', components: doc.components });
  const validate = ajv.getSchema('tollgate-openapi#/components/schemas/Error');
  if (!validate) throw new Error('the document has no Error schema');
  validError = (body) => validate(body) as boolean;
  errorsOf = () => validate.errors;
});
afterAll(async () => {
  await server.stop();
});

/** Every operation of the document, with the path it is served at. */
function operations(): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));
}

/** A path with each parameter filled: an example, a whole number for an integer, else a name no store holds. */
function pathOf(path: string, op: Operation, override: Record<string, string> = {}): string {
  return `/v1${path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (override[name] !== undefined) return override[name];
    const schema = op.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema;
    if (schema?.type === 'integer') return '1';
    if (name === 'agent') return 'support-bot';
    return encodeURIComponent(typeof schema?.example === 'string' ? schema.example : 'policies/none.policy.json');
  })}`;
}

/** The key that passes an operation's role checks: the agent's for the gate, else the owner's. */
function keyFor(path: string): string {
  return path === '/agents/{agent}/calls' ? agentKey(server, 'support-bot') : server.key('owner');
}

/** Sends a request and holds the answer to the contract: a declared 4xx in the one Error shape. */
async function refused(
  op: Operation,
  what: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string },
): Promise<{ status: number; json: LooseJson; headers: Headers }> {
  const res = await fetch(server.url + path, { method: method.toUpperCase(), headers: init.headers ?? {}, body: init.body });
  const text = await res.text();
  const label = `${op.operationId} ${what}: ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  const json = JSON.parse(text) as LooseJson;
  expect(validError(json), `${label}\n${JSON.stringify(errorsOf())}`).toBe(true);
  expect(Object.keys(op.responses), `${label}: the status is declared`).toContain(String(res.status));
  const code = json.error.code as string;
  answered.set(code, (answered.get(code) ?? new Set()).add(res.status));
  return { status: res.status, json, headers: res.headers };
}

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended ruleset with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/v1/openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error');
    // biome-ignore lint/suspicious/noConsole: Redocly's findings (warnings too) are this test's report
    for (const p of problems) console.log(`redocly ${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('names the bearer scheme on every operation but the public ones, each with a unique operationId and a tag', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of operations()) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z]+$/);
      expect(ids.has(op.operationId), op.operationId).toBe(false);
      ids.add(op.operationId);
      expect((op as { tags?: string[] }).tags?.length, op.operationId).toBeGreaterThan(0);
      // Health and its probes (load balancers probe without a key), this document and its page, and the issuers a
      // console signs in with before it holds any credential.
      const isPublic = ['/health', '/health/live', '/health/ready', '/openapi.json', '/reference', '/identity/issuers'].includes(path);
      expect(op.security, op.operationId).toEqual(isPublic ? [] : [{ bearer: [] }]);
      if (!isPublic) expect(Object.keys(op.responses), op.operationId).toContain('401');
      if (op.requestBody) expect(Object.keys(op.responses), op.operationId).toEqual(expect.arrayContaining(['413', '415']));
    }
  });

  it('has Error.code as an enum of exactly API_CODES', () => {
    const code = doc.components.schemas.Error.properties.error.properties.code;
    expect(code.enum).toEqual(Object.keys(API_CODES));
  });
});

describe('negative requests from the document, for every operation', () => {
  it('answers 401 with WWW-Authenticate: Bearer without a key', async () => {
    for (const { method, path, op } of operations()) {
      if (op.security?.length === 0) continue;
      const r = await refused(op, 'without a key', method, pathOf(path, op), {});
      expect(r.status, op.operationId).toBe(401);
      expect(r.headers.get('www-authenticate'), op.operationId).toBe('Bearer');
      expect(r.headers.get('cache-control'), op.operationId).toBe('no-store');
    }
  });

  it('answers 400 INVALID_QUERY naming an undeclared query parameter', async () => {
    for (const { method, path, op } of operations()) {
      const headers: Record<string, string> = { authorization: `Bearer ${keyFor(path)}` };
      const r = await refused(op, 'with ?zz_unknown=1', method, `${pathOf(path, op)}?zz_unknown=1`, { headers });
      expect([r.status, r.json.error.code], op.operationId).toEqual([400, 'INVALID_QUERY']);
      expect(r.json.error.message, op.operationId).toContain('zz_unknown');
    }
  });

  it('answers 400 INVALID_ID for an integer path parameter that is not one', async () => {
    let checked = 0;
    for (const { method, path, op } of operations()) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path' || p.schema?.type !== 'integer') continue;
        for (const bad of ['abc', '0', '1.5', '-1']) {
          const headers = { authorization: `Bearer ${keyFor(path)}` };
          const r = await refused(op, `with ${p.name}=${bad}`, method, pathOf(path, op, { [p.name]: bad }), { headers });
          expect([r.status, r.json.error.code], `${op.operationId} ${bad}`).toEqual([400, 'INVALID_ID']);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('refuses a missing body, a body of the wrong type and another media type on every operation with a body', async () => {
    let checked = 0;
    for (const { method, path, op } of operations()) {
      if (!op.requestBody) continue;
      checked++;
      const url = pathOf(path, op);
      const auth = { authorization: `Bearer ${keyFor(path)}` };
      const json = { ...auth, 'content-type': 'application/json' };
      if (op.requestBody.required) {
        const none = await refused(op, 'without a body', method, url, { headers: auth });
        expect([none.status, none.json.error.code], op.operationId).toEqual([400, 'INVALID_BODY']);
      }
      for (const wrong of ['[]', '"text"', '42', 'null', '{"zz_unknown": true}']) {
        const r = await refused(op, `with the body ${wrong}`, method, url, { headers: json, body: wrong });
        expect([r.status, r.json.error.code], `${op.operationId} ${wrong}`).toEqual([400, 'INVALID_BODY']);
      }
      const plain = await refused(op, 'as text/plain', method, url, { headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' });
      expect([plain.status, plain.json.error.code], op.operationId).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('answered only codes of API_CODES, each with its status', () => {
    expect(answered.size).toBeGreaterThan(3);
    for (const [code, statuses] of answered) {
      expect(Object.keys(API_CODES), code).toContain(code);
      expect([...statuses], code).toEqual([API_CODES[code as ApiCode].status]);
    }
  });
});
