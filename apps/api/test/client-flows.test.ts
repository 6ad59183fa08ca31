// The console's main flows through the generated client (openapi-fetch typed by apps/web/src/lib/api/schema.d.ts)
// against a real server on loopback, with every answer checked by Ajv against the schema its operation declares
// for that status in GET /v1/openapi.json: an undeclared status or a body that does not match fails the test,
// naming the operation and Ajv's error.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../web/src/lib/api/schema';
import { agentKey, startServer, type TestServer } from './server-harness.ts';

const DOC_ID = 'tollgate-openapi.json';
const POLICY = 'policies/refunds.policy.json';
const RULESET = 'rulesets/support.ruleset.json';

let s: TestServer;
let ajv: Ajv2020;
let doc: { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };
/** Every answer seen, as `METHOD path status`, and every one that did not match its declared schema. */
const seen: string[] = [];
const mismatches: string[] = [];

/** A JSON Pointer to `segments`, each escaped (RFC 6901) and URI-encoded (path templates hold braces). */
const pointer = (segments: string[]) => segments.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** The validator of what `method path` declares for `status`, if it declares it. */
const declared = (method: string, path: string, status: string) =>
  ajv.getSchema(`${DOC_ID}#/${pointer(['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'])}`);

/** Checks one answer against the schema declared for its operation and status. */
const checkAgainstDocument: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const method = request.method.toLowerCase();
    const operation = doc.paths[schemaPath]?.[method];
    const name = operation?.operationId ?? `${request.method} ${schemaPath}`;
    const status = String(response.status);
    seen.push(`${request.method} ${schemaPath} ${status}`);
    if (!operation?.responses?.[status]) {
      mismatches.push(`${name} answered ${status}, which it does not declare`);
      return;
    }
    const validate = declared(method, schemaPath, status);
    if (!validate) {
      mismatches.push(`${name} ${status} declares no application/json schema`);
      return;
    }
    const body: unknown = JSON.parse(await response.clone().text());
    if (!validate(body)) mismatches.push(`${name} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`);
  },
};

function clientOf(key: string): Client<paths> {
  const client = createClient<paths>({ baseUrl: `${s.url}/v1`, headers: { authorization: `Bearer ${key}` } });
  client.use(checkAgainstDocument);
  return client;
}

/** The data of an answer whose status is `status`, once no answer so far has failed its schema. */
function answered<T>(result: { data?: T; error?: unknown; response: Response }, status = 200): T {
  expect(mismatches).toEqual([]);
  expect(result.response.status, JSON.stringify(result.error)).toBe(status);
  if (result.data === undefined) throw new Error(`no body with ${status}`);
  return result.data;
}

beforeAll(async () => {
  s = await startServer();
  doc = (await (await fetch(`${s.url}/v1/openapi.json`)).json()) as typeof doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, DOC_ID);
});
afterAll(async () => {
  await s?.stop();
});

describe('the main flows through the generated client', () => {
  it('lists, reads, edits with preconditions, activates, diffs and reverts a document', async () => {
    const owner = clientOf(s.key('owner'));
    const list = answered(await owner.GET('/documents'));
    expect(list.documents.map((d) => d.id)).toContain(POLICY);

    const read = answered(await owner.GET('/documents/{id}', { params: { path: { id: POLICY } } }));
    const base = read.version.sequence;
    const content = read.text.replace('"approval_ttl_seconds": 14400', '"approval_ttl_seconds": 7200');
    const edit = await owner.POST('/documents/{id}/edits', {
      params: { path: { id: POLICY } },
      body: { content, reason: 'shorter approvals', based_on: base },
      headers: { 'if-match': `"${base}"` },
    });
    const outcome = answered(edit, 201);
    expect(outcome.status).toBe('applied');
    const edited = outcome.version?.sequence ?? 0;
    expect(edited).toBe(base + 1);

    const history = answered(await owner.GET('/documents/{id}/history', { params: { path: { id: POLICY } } }));
    expect(history.versions.map((v) => v.sequence)).toEqual([base, edited]);
    const version = answered(await owner.GET('/documents/{id}/versions/{sequence}', { params: { path: { id: POLICY, sequence: base } } }));
    expect(version.text).toBe(read.text);

    const activated = await owner.POST('/documents/{id}/activate', {
      params: { path: { id: POLICY } },
      body: { sequence: base },
      headers: { 'if-match': `"${edited}"` },
    });
    expect(answered(activated).version).toMatchObject({ sequence: base, running: true });

    const diff = answered(await owner.GET('/documents/{id}/diff', { params: { path: { id: POLICY }, query: { from: base, to: edited } } }));
    expect(diff.unified).toContain('7200');

    const reverted = await owner.POST('/documents/{id}/revert', {
      params: { path: { id: POLICY } },
      headers: { 'if-match': `"${edited}"` },
    });
    expect(answered(reverted).version).toMatchObject({ sequence: edited, running: true });

    // An error answer is checked against its declared schema too.
    const missing = await owner.GET('/documents/{id}', { params: { path: { id: 'policies/nothing.policy.json' } } });
    expect(missing.response.status).toBe(404);
    expect(mismatches).toEqual([]);
  });

  it('holds a call at the gate, lists it, approves it, lets the agent claim it, and lists the decision', async () => {
    const agent = clientOf(agentKey(s, 'support-bot'));
    const approver = clientOf(s.key('approver'));
    const owner = clientOf(s.key('owner'));
    const args = { amount: '500', order: 'A-7' };
    const call = answered(
      await agent.POST('/agents/{agent}/calls', {
        params: { path: { agent: 'support-bot' } },
        body: { tool: 'issue_refund', arguments: args },
      }),
    );
    expect(call.decision).toBe('require_approval');
    const id = call.approval?.id ?? '';

    const pending = answered(await approver.GET('/approvals', { params: { query: { status: 'pending', limit: 50 } } }));
    expect(pending.approvals.map((a) => a.id)).toContain(id);
    expect(answered(await approver.GET('/approvals/{id}', { params: { path: { id } } })).status).toBe('pending');

    const approved = answered(
      await approver.POST('/approvals/{id}/approve', { params: { path: { id } }, body: { reason: 'customer is right' } }),
    );
    expect(approved.status).toBe('approved');
    const me = answered(await approver.GET('/me'));
    expect(approved.decided_by).toBe(me.id);

    const claimed = answered(await agent.POST('/approvals/{id}/claim', { params: { path: { id } }, body: { arguments: args } }));
    expect(claimed.claimed_at).not.toBeNull();

    const decisions = answered(await owner.GET('/decisions', { params: { query: { agent: 'support-bot', limit: 100 } } }));
    expect(decisions.decisions.map((d) => d.call_id)).toContain(call.call_id);
    const one = answered(await owner.GET('/decisions/{call_id}', { params: { path: { call_id: call.call_id } } }));
    expect(one.tool).toBe('issue_refund');
  });

  it('lists rule sets and reads one', async () => {
    const viewer = clientOf(s.key('viewer'));
    const sets = answered(await viewer.GET('/rulesets', { params: { query: { status: 'all' } } }));
    expect(sets.rulesets.map((r) => r.id)).toContain(RULESET);
    const set = answered(await viewer.GET('/rulesets/{id}', { params: { path: { id: RULESET } } }));
    expect(set.pins.map((p) => p.rule_id)).toContain(POLICY);
  });

  it('checked every answer against its declared schema, and the check refuses a body that does not match', () => {
    expect(mismatches).toEqual([]);
    expect(new Set(seen)).toEqual(
      new Set([
        'GET /documents 200',
        'GET /documents/{id} 200',
        'POST /documents/{id}/edits 201',
        'GET /documents/{id}/history 200',
        'GET /documents/{id}/versions/{sequence} 200',
        'POST /documents/{id}/activate 200',
        'GET /documents/{id}/diff 200',
        'POST /documents/{id}/revert 200',
        'GET /documents/{id} 404',
        'POST /agents/{agent}/calls 200',
        'GET /approvals 200',
        'GET /approvals/{id} 200',
        'POST /approvals/{id}/approve 200',
        'GET /me 200',
        'POST /approvals/{id}/claim 200',
        'GET /decisions 200',
        'GET /decisions/{call_id} 200',
        'GET /rulesets 200',
        'GET /rulesets/{id} 200',
      ]),
    );
    const documents = declared('get', '/documents', '200');
    expect(documents?.({ documents: [] })).toBe(true);
    expect(documents?.({ documents: [{ id: 7 }] })).toBe(false);
  });
});
