// A policy's example suite as a stored document (policies/<name>.examples.json): the demo seeds the
// refunds suite, the generic document routes read and edit it, the seam refuses a broken suite with its
// line, the simulations API runs the stored suite against the policy, and the documents list counts an
// example that does not hold as a problem of its policy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const SUITE = 'policies/refunds.examples.json';
const DOC = `/v1/documents/${encodeURIComponent(SUITE)}`;

let server: TestServer;

beforeEach(async () => {
  server = await startServer();
});

afterEach(async () => {
  await server.stop();
});

describe('example suites as documents', () => {
  it("lists the demo's refunds suite as an examples document and serves the repository's text", async () => {
    const list = await server.call('GET', '/v1/documents', { key: server.key('viewer') });
    const suite = list.json.documents.find((d: { id: string }) => d.id === SUITE);
    expect(suite).toEqual({ id: SUITE, kind: 'examples', status: 'running', running_sequence: 1, versions: 1, problems: [] });
    const got = await server.call('GET', DOC, { key: server.key('viewer') });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: SUITE, kind: 'examples', version: { sequence: 1, running: true } });
    expect(got.json.text).toBe(readFileSync(join(REPO_ROOT, 'examples/refunds.examples.json'), 'utf8'));
  });

  it('refuses a broken suite with 422, naming its line and code, and stores nothing', async () => {
    const text = (await server.call('GET', DOC, { key: server.key('viewer') })).json.text as string;
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"decision": "allow"')) + 1;
    const content = text.replace('"decision": "allow"', '"decision": "maybe"');
    const res = await server.call('POST', `${DOC}/edits`, { key: server.key('developer'), body: { content, reason: 'typo', based_on: 1 } });
    expect(res.status).toBe(422);
    expect(res.json.status).toBe('refused');
    expect(res.json.reasons).toMatchObject([
      { code: 'INVALID_VALUE', severity: 'error', line: at, message: 'expected "allow", "require_approval" or "deny"' },
    ]);
    const history = await server.call('GET', `${DOC}/history`, { key: server.key('viewer') });
    expect(history.json.versions).toHaveLength(1);
  });

  it('applies an edit by a developer as widening nothing, and creates a suite for another policy', async () => {
    const text = (await server.call('GET', DOC, { key: server.key('viewer') })).json.text as string;
    const suite = JSON.parse(text);
    suite.examples = suite.examples.slice(0, 2);
    const content = `${JSON.stringify(suite, null, 2)}\n`;
    const res = await server.call('POST', `${DOC}/edits`, {
      key: server.key('developer'),
      body: { content, reason: 'fewer examples', based_on: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: 'applied', impact: { widens_security: false, widened_subjects: [] } });
    expect((await server.call('GET', DOC, { key: server.key('viewer') })).json.version.sequence).toBe(2);
    const other = `/v1/documents/${encodeURIComponent('policies/other.examples.json')}`;
    const created = await server.call('POST', `${other}/edits`, {
      key: server.key('developer'),
      body: { content, reason: 'a new suite', based_on: null },
    });
    expect(created.json.status).toBe('applied');
  });

  it('simulates the refunds policy against its stored suite: every example agrees', async () => {
    const text = (await server.call('GET', DOC, { key: server.key('viewer') })).json.text as string;
    const suite = JSON.parse(text);
    const res = await server.call('POST', '/v1/simulations', {
      key: server.key('viewer'),
      body: { document: { id: 'policies/refunds.policy.json' }, calls: { examples: suite } },
    });
    expect(res.status).toBe(200);
    expect(res.json.compared).toBe('expected');
    expect(res.json.counts).toEqual({ calls: suite.examples.length, agreed: suite.examples.length, differed: 0, not_evaluable: 0 });
  });

  it('counts a running example that does not hold as a problem of its policy in the documents list', async () => {
    const policyOf = async () =>
      (await server.call('GET', '/v1/documents', { key: server.key('viewer') })).json.documents.find(
        (d: { id: string }) => d.id === 'policies/refunds.policy.json',
      );
    expect((await policyOf()).problems).toEqual([]);
    const suite = JSON.parse((await server.call('GET', DOC, { key: server.key('viewer') })).json.text as string);
    const first = suite.examples[0];
    first.expect = { decision: 'deny', rule: null, code: null };
    const content = `${JSON.stringify(suite, null, 2)}\n`;
    const res = await server.call('POST', `${DOC}/edits`, {
      key: server.key('developer'),
      body: { content, reason: 'wrong', based_on: 1 },
    });
    expect(res.json.status).toBe('applied');
    const listed = await policyOf();
    expect(listed.problems).toEqual([
      {
        source: 'document',
        code: 'EXAMPLE_FAILED',
        severity: 'error',
        message: `${first.name}: expected deny, got allow, rule read-orders`,
      },
    ]);
    // The suite itself reads, so its own row stays clean.
    const list = await server.call('GET', '/v1/documents', { key: server.key('viewer') });
    expect(list.json.documents.find((d: { id: string }) => d.id === SUITE).problems).toEqual([]);
  });
});
