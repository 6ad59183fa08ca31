// Every route of /v1/openapi.json with a path parameter, over real HTTP, sent ids that can never name what the
// parameter names: undecodable percent-encoding, `..` segments, over-long ids (generated with fast-check) and an
// id of the wrong kind. Each answers a 4xx it declares, in the one Error shape, with a code of the registry at its
// status, never a 2xx or a 5xx; which 4xx is docs/api.md's "One vocabulary" (INVALID_ID, NOT_A_POLICY, or
// NOT_FOUND naming details.resource where any short name may exist).
import { API_CODES, type ApiCode } from '@tollgate/engine';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentKey, type LooseJson, startServer, type TestServer } from './server-harness.ts';

/** What a path parameter names, which decides what a bad one answers. */
type Kind = 'document' | 'policy' | 'rule file' | 'rule document' | 'ruleset' | 'catalogue' | 'agent' | 'sequence' | 'opaque';

/** Every path parameter of the API, by `path:name`; a new one fails the walk until it is listed here. */
const KINDS: Record<string, Kind> = {
  'agent:/agents/{agent}/calls': 'agent',
  'agent:/agents/{agent}/decision-map': 'agent',
  'name:/policies/templates/{name}': 'opaque',
  'id:/approvals/{id}': 'opaque',
  'id:/approvals/{id}/approve': 'opaque',
  'id:/approvals/{id}/deny': 'opaque',
  'id:/approvals/{id}/claim': 'opaque',
  'id:/approvals/{id}/challenge': 'opaque',
  'id:/members/{id}/credentials': 'opaque',
  'id:/members/{id}/credentials/{credential}/revoke': 'opaque',
  'credential:/members/{id}/credentials/{credential}/revoke': 'opaque',
  'id:/members/{id}/public-key': 'opaque',
  'id:/members/{id}': 'opaque',
  'id:/keys/{id}': 'opaque',
  'id:/keys/{id}/rotate': 'opaque',
  'id:/keys/{id}/revoke': 'opaque',
  'call_id:/decisions/{call_id}': 'opaque',
  'call_id:/decisions/{call_id}/receipt': 'opaque',
  'document:/trials/{document}': 'policy',
  'document:/trials/{document}/stop': 'policy',
  'document:/trials/{document}/differences': 'policy',
  'document:/shadows/{document}': 'rule file',
  'document:/shadows/{document}/stop': 'rule file',
  'id:/documents/{id}/decision-map': 'policy',
  'id:/documents/{id}/impact-preview': 'policy',
  'id:/documents/{id}/status': 'rule document',
  'id:/catalogues/{id}/tools': 'catalogue',
  'id:/catalogues/{id}/tools/{name}/authorize': 'catalogue',
  'name:/catalogues/{id}/tools/{name}/authorize': 'opaque',
  'sequence:/documents/{id}/versions/{sequence}': 'sequence',
  'id:/webhooks/{id}': 'opaque',
  'id:/webhooks/{id}/rotate-secret': 'opaque',
  'id:/webhooks/{id}/deliveries': 'opaque',
  'id:/webhooks/{id}/deliveries/{delivery}/redeliver': 'opaque',
  'delivery:/webhooks/{id}/deliveries/{delivery}/redeliver': 'opaque',
};
for (const path of ['', '/history', '/versions/{sequence}', '/edits', '/activate', '/revert', '/diff']) {
  KINDS[`id:/documents/{id}${path}`] = 'document';
}
for (const path of ['', '/update-to-latest', '/archive', '/restore', '/validate']) KINDS[`id:/rulesets/{id}${path}`] = 'ruleset';

/** A stored id of another kind than the parameter's, or for kinds any document fits, a name no store holds. */
const WRONG_KIND: Record<Kind, string> = {
  document: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  policy: 'sheets/support.rules.yaml',
  'rule file': 'policies/refunds.policy.json',
  'rule document': 'catalogue.yaml',
  ruleset: 'policies/refunds.policy.json',
  catalogue: 'settings.yaml',
  agent: 'agents/support-bot.agent.yaml',
  sequence: 'policies/refunds.policy.json',
  opaque: 'policies/refunds.policy.json',
};

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: { type?: string; example?: unknown };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, unknown>;
}
interface Walked {
  method: string;
  path: string;
  op: Operation;
  params: { name: string; kind: Kind }[];
}

let server: TestServer;
let walked: Walked[];

beforeAll(async () => {
  server = await startServer();
  const doc: { paths: Record<string, Record<string, Operation>> } = (await server.call('GET', '/v1/openapi.json')).json;
  walked = Object.entries(doc.paths)
    .filter(([path]) => path.includes('{'))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
        return { method, path, op, params: names.map((name) => ({ name, kind: KINDS[`${name}:${path}`] as Kind })) };
      }),
    );
});
afterAll(async () => {
  await server.stop();
});

/** A good value of a parameter, so only the one under test is bad. */
function goodValue(name: string, kind: Kind): string {
  const good: Record<Kind, string> = {
    document: 'policies/refunds.policy.json',
    policy: 'policies/refunds.policy.json',
    'rule file': 'sheets/support.rules.yaml',
    'rule document': 'policies/refunds.policy.json',
    ruleset: 'rulesets/support.ruleset.json',
    catalogue: 'catalogue.yaml',
    agent: 'support-bot',
    sequence: '1',
    opaque: name === 'name' ? 'issue_refund' : 'none',
  };
  return encodeURIComponent(good[kind]);
}

/** Sends `raw` (as it goes on the wire) as parameter `name`, the others good, and any required query filled. */
async function send(w: Walked, name: string, raw: string): Promise<{ status: number; json: LooseJson; text: string; label: string }> {
  const path = w.path.replace(/\{([^}]+)\}/g, (_, n: string) => (n === name ? raw : goodValue(n, KINDS[`${n}:${w.path}`] as Kind)));
  const query = (w.op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=1`);
  const key = w.path === '/agents/{agent}/calls' ? agentKey(server, 'support-bot') : server.key('owner');
  const url = `/v1${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const res = await server.call(w.method.toUpperCase(), url, { key });
  return { ...res, label: `${w.method.toUpperCase()} ${url.slice(0, 200)}: ${res.status} ${res.text.slice(0, 300)}` };
}

/** The answer is a declared 4xx in the one Error shape, with a registered code at its status. */
function refusedInOneShape(w: Walked, r: { status: number; json: LooseJson; label: string }): ApiCode {
  expect(r.status, r.label).toBeGreaterThanOrEqual(400);
  expect(r.status, r.label).toBeLessThan(500);
  const code = r.json?.error?.code as ApiCode;
  expect(typeof r.json?.error?.message, r.label).toBe('string');
  expect(API_CODES[code]?.status, r.label).toBe(r.status);
  expect(Object.keys(w.op.responses), `${r.label}: the status is declared`).toContain(String(r.status));
  if (code === 'NOT_FOUND') expect(typeof r.json.error.details?.resource, `${r.label}: NOT_FOUND names the resource`).toBe('string');
  return code;
}

/** Sends `raw` to every parameter of every route; `expected` says which codes each kind may answer. */
async function walk(raw: (kind: Kind) => string, expected: (kind: Kind) => readonly ApiCode[]): Promise<void> {
  for (const w of walked) {
    for (const { name, kind } of w.params) {
      expect(kind, `${name} of ${w.path} has a kind in KINDS`).toBeDefined();
      const r = await send(w, name, raw(kind));
      const code = refusedInOneShape(w, r);
      expect(expected(kind), r.label).toContain(code);
      if (code === 'INVALID_ID') expect(r.json.error.details?.issues?.[0]?.path, r.label).toBe(`/${name}`);
    }
  }
}

/** Text an id may hold, on its own: letters, digits and a few marks (no `/`, `%` or dot segments). */
const idText = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
/** A percent sequence that is not UTF-8 (a lone `%`, a bad hex digit, a cut or invalid sequence, a surrogate). */
const undecodable = fc.constantFrom('%', '%G0', '%E0%A4%A', '%FF', '%C3%28', '%ED%A0%80', '%C0%AF', '%F4%90%80%80', '%E0%A4');

describe('a path parameter that can never name a resource', () => {
  it('undecodable percent-encoding is 400 INVALID_ID on every route, naming the parameter', async () => {
    // `~` after the bad sequence, so the text after it never completes it.
    const id = fc.tuple(idText, undecodable, idText).map(([a, bad, b]) => `${a}${bad}~${b}`);
    await fc.assert(
      fc.asyncProperty(id, (raw) =>
        walk(
          () => raw,
          () => ['INVALID_ID'],
        ),
      ),
      { numRuns: 15 },
    );
    await walk(
      () => '%E0%A4%A',
      () => ['INVALID_ID'],
    );
  });

  it('an id with a .. or . segment is 400 INVALID_ID wherever it names a document or an agent', async () => {
    const id = fc
      .tuple(fc.array(idText, { minLength: 1, maxLength: 3 }), fc.constantFrom('..', '.'), fc.array(idText, { minLength: 1, maxLength: 3 }))
      .map(([before, dots, after]) => encodeURIComponent([...before, dots, ...after].join('/')));
    // A name with no structure (an approval's, a template's) is looked up: it names nothing, 404 with the
    // resource (or the required body is missed first); over an opaque id's 64 characters it is refused unread.
    const expected =
      (raw: string) =>
      (kind: Kind): ApiCode[] =>
        kind !== 'opaque' ? ['INVALID_ID'] : decodeURIComponent(raw).length > 64 ? ['INVALID_ID'] : ['NOT_FOUND', 'INVALID_BODY'];
    await fc.assert(
      fc.asyncProperty(id, (raw) => walk(() => raw, expected(raw))),
      { numRuns: 15 },
    );
    for (const raw of ['..%2Fsettings.yaml', 'policies%2F..%2Fsettings.yaml']) await walk(() => raw, expected(raw));
  });

  it('an over-long id is 400 INVALID_ID on every route', async () => {
    const id = fc
      .tuple(idText, fc.integer({ min: 600, max: 3000 }))
      .map(([text, n]) => text.repeat(Math.ceil(n / text.length)).slice(0, n));
    await fc.assert(
      fc.asyncProperty(id, (raw) =>
        walk(
          () => raw,
          () => ['INVALID_ID'],
        ),
      ),
      { numRuns: 10 },
    );
  });

  it('an id of the wrong kind is refused by its kind, never looked up as another', async () => {
    const expected: Record<Kind, readonly ApiCode[]> = {
      // Any document fits: a name no store holds is missing (or the request's own shape is judged first).
      document: ['NOT_FOUND', 'INVALID_QUERY', 'INVALID_BODY', 'PRECONDITION_REQUIRED'],
      policy: ['NOT_A_POLICY'],
      'rule file': ['INVALID_ID'],
      'rule document': ['INVALID_ID'],
      ruleset: ['INVALID_ID'],
      catalogue: ['INVALID_ID'],
      agent: ['INVALID_ID'],
      sequence: ['INVALID_ID'],
      opaque: ['NOT_FOUND', 'INVALID_BODY'],
    };
    await walk(
      (kind) => encodeURIComponent(WRONG_KIND[kind]),
      (kind) => expected[kind],
    );
  });
});
