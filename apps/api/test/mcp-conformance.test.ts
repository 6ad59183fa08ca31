// @modelcontextprotocol/conformance's server scenarios against /mcp of an in-process server (docs/mcp.md,
// "Conformance"): the package's own CLI, run once as a child process, runs every scenario against the gateway
// with fixtures/conformance-upstream.mjs behind it, and each scenario's own report (its checks.json) is
// asserted here. docs/mcp.md's table of scenarios is read back, so it stays the list the CLI runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapUpstreams, nodeUpstream, pendingApprovalId } from './mcp-fixture.ts';
import { agentKey, type LooseJson, okJson, postEdit, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const CONFORMANCE = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const NODE20 = join(REPO_ROOT, 'apps/api/test/fixtures/conformance-node20.mjs');
const UPSTREAM = join(REPO_ROOT, 'apps/api/test/fixtures/conformance-upstream.mjs');

/** The upstream's tools, each offered under its own name as a read the demo policy allows (rule read-orders). */
const TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_progress',
  'json_schema_2020_12_tool',
  'test_reconnection',
  'test_tool_with_logging',
  'test_sampling',
  'test_elicitation',
];

type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';

interface Check {
  id: string;
  status: Status;
  errorMessage?: string;
}

/** Scenarios that apply to a gateway of tools, by the result docs/mcp.md gives, with each check's status. */
const PASSES: Record<string, Record<string, Status>> = {
  'server-initialize': { 'server-initialize': 'SUCCESS' },
  ping: { ping: 'SUCCESS' },
  'tools-list': { 'tools-list': 'SUCCESS' },
  'tools-call-simple-text': { 'tools-call-simple-text': 'SUCCESS' },
  'tools-call-image': { 'tools-call-image': 'SUCCESS' },
  'tools-call-audio': { 'tools-call-audio': 'SUCCESS' },
  'tools-call-embedded-resource': { 'tools-call-embedded-resource': 'SUCCESS' },
  'tools-call-mixed-content': { 'tools-call-mixed-content': 'SUCCESS' },
  'tools-call-error': { 'tools-call-error': 'SUCCESS' },
  'tools-call-with-progress': { 'tools-call-with-progress': 'SUCCESS' },
  'json-schema-2020-12': {
    'json-schema-2020-12-tool-found': 'SUCCESS',
    'json-schema-2020-12-$schema': 'SUCCESS',
    'json-schema-2020-12-$defs': 'SUCCESS',
    'json-schema-2020-12-additionalProperties': 'SUCCESS',
  },
  'dns-rebinding-protection': { 'localhost-host-rebinding-rejected': 'SUCCESS', 'localhost-host-valid-accepted': 'SUCCESS' },
  'server-sse-multiple-streams': { 'server-accepts-multiple-post-streams': 'SUCCESS', 'server-sse-streams-functional': 'SUCCESS' },
};

/** Scenarios that run without a failure but warn that streams cannot be resumed (no event store; docs/mcp.md). */
const NOT_RESUMABLE: Record<string, Record<string, Status>> = {
  'server-sse-polling': {
    'server-sse-priming-event': 'WARNING',
    'server-sse-retry-field': 'WARNING',
  },
};

const METHOD_NOT_FOUND = /Method not found/;
/** Scenarios that do not apply, each with the failure that shows why (docs/mcp.md gives the reason). */
const NOT_APPLICABLE: Record<string, RegExp> = {
  'logging-set-level': METHOD_NOT_FOUND,
  'tools-call-with-logging': METHOD_NOT_FOUND,
  'completion-complete': METHOD_NOT_FOUND,
  'tools-call-sampling': /did not request sampling/,
  'tools-call-elicitation': /did not request elicitation/,
  'elicitation-sep1034-defaults': /did not request elicitation/,
  'elicitation-sep1330-enums': /did not request elicitation/,
  'resources-list': METHOD_NOT_FOUND,
  'resources-read-text': METHOD_NOT_FOUND,
  'resources-read-binary': METHOD_NOT_FOUND,
  'resources-templates-read': METHOD_NOT_FOUND,
  'resources-subscribe': METHOD_NOT_FOUND,
  'resources-unsubscribe': METHOD_NOT_FOUND,
  'prompts-list': METHOD_NOT_FOUND,
  'prompts-get-simple': METHOD_NOT_FOUND,
  'prompts-get-with-args': METHOD_NOT_FOUND,
  'prompts-get-embedded-resource': METHOD_NOT_FOUND,
  'prompts-get-with-image': METHOD_NOT_FOUND,
};

let s: TestServer;
let proxy: Server;
let results: string;
/** Each scenario's report, by scenario. */
const reports = new Map<string, Check[]>();

/**
 * A loopback proxy that adds the agent's key, since the CLI sends no headers of its own. Everything else goes
 * on as it came (Host and Origin too, which dns-rebinding-protection sets), and answers stream back as they
 * arrive (server-sent events).
 */
function keyProxy(target: string, key: string): Server {
  const to = new URL(target);
  return createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${key}` };
    const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
}

/**
 * Runs every server scenario of the CLI (`--suite all`) against `url`, each report saved in `dir`
 * (server-SCENARIO-TIMESTAMP/checks.json). Its exit code says only that some scenario failed.
 */
function runAllScenarios(url: string, dir: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', NODE20, CONFORMANCE, 'server', '--url', url, '--suite', 'all', '--output-dir', dir], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== null) reject(new Error(`the conformance CLI was stopped after 60 s: ${stderr}`));
      else if (code !== 0 && code !== 1) reject(new Error(`the conformance CLI exited with ${code}: ${stderr}`));
      else resolve();
    });
  });
}

/** The scenarios docs/mcp.md's "Conformance" table lists, with the result it gives each. */
function documentedResults(): Map<string, string> {
  const doc = readFileSync(join(REPO_ROOT, 'docs/mcp.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Conformance'));
  const rows = section.slice(0, section.indexOf('\n## ')).matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \|/gm);
  return new Map([...rows].map((m) => [m[1] as string, (m[2] as string).trim()]));
}

beforeAll(async () => {
  s = await startServer();
  const catalogue = (await s.call('GET', '/v1/documents/catalogue.yaml', { key: s.key('owner') })).json.text as string;
  const added = TOOLS.map((name) => `  - { name: ${name}, action: orders.read, kind: read }\n`).join('');
  await okJson(postEdit(s, 'catalogue.yaml', s.key('owner'), { content: catalogue + added, reason: 'the conformance tools' }), 201);
  await mapUpstreams(s, [nodeUpstream('conformance', UPSTREAM)], {
    ...Object.fromEntries(TOOLS.map((name) => [name, { server: 'conformance', tool: name }])),
    // A refund of 100 to 1000 is held for approval (the demo policy): its progress, then the upstream's.
    issue_refund: { server: 'conformance', tool: 'test_tool_with_progress' },
  });
  // mapUpstreams authorized each new tool's binding and pinned its upstream definition, as an owner would.
  proxy = keyProxy(s.url, agentKey(s, 'support-bot'));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  results = mkdtempSync(join(tmpdir(), 'tollgate-conformance-'));
  await runAllScenarios(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`, results);
  for (const dir of readdirSync(results)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1];
    if (scenario) reports.set(scenario, JSON.parse(readFileSync(join(results, dir, 'checks.json'), 'utf8')));
  }
}, 90_000);

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  s?.ctx.events.close();
  await s?.stop();
  if (results) rmSync(results, { recursive: true, force: true });
});

/** A report's checks that say something (INFO checks only log the exchange), by id. */
function verdicts(scenario: string): Record<string, Status> {
  const checks = reports.get(scenario);
  expect(checks, `${scenario} wrote a report`).toBeDefined();
  const out: Record<string, Status> = {};
  for (const c of checks ?? []) {
    if (c.status === 'INFO') continue;
    expect(c.status, `${scenario}: ${c.id} ${c.errorMessage ?? ''}`).not.toBe('FAILURE');
    out[c.id] = c.status;
  }
  return out;
}

describe('@modelcontextprotocol/conformance server scenarios against /mcp', () => {
  it('runs every scenario docs/mcp.md lists, each with the result it gives', () => {
    const expected = new Map<string, string>([
      ...Object.keys(PASSES).map((k): [string, string] => [k, 'passes']),
      ...Object.keys(NOT_RESUMABLE).map((k): [string, string] => [k, 'not resumable']),
      ...Object.keys(NOT_APPLICABLE).map((k): [string, string] => [k, 'not applicable']),
    ]);
    expect(Object.fromEntries(documentedResults())).toEqual(Object.fromEntries(expected));
    expect([...reports.keys()].sort()).toEqual([...expected.keys()].sort());
  });

  for (const [scenario, statuses] of Object.entries(PASSES)) {
    it(`passes ${scenario}`, () => {
      expect(verdicts(scenario)).toEqual(statuses);
    });
  }

  for (const [scenario, statuses] of Object.entries(NOT_RESUMABLE)) {
    it(`runs ${scenario} without a failure, warning only that a stream cannot be resumed`, () => {
      expect(verdicts(scenario)).toEqual(statuses);
    });
  }

  for (const [scenario, why] of Object.entries(NOT_APPLICABLE)) {
    it(`fails ${scenario}, which does not apply, for the reason docs/mcp.md gives`, () => {
      const failed = (reports.get(scenario) ?? []).filter((c) => c.status === 'FAILURE');
      expect(failed.length, `${scenario} fails`).toBeGreaterThan(0);
      for (const c of failed) expect(c.errorMessage).toMatch(why);
    });
  }
});

describe('what the scenarios rest on, checked directly', () => {
  it('refuses a request on loopback whose Origin names another host, before reading its key', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
    });
    const post = (origin: string, key?: string) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          origin,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: initialize,
      });
    const rebound = await post('http://evil.example.com:8787', agentKey(s, 'support-bot'));
    expect(rebound.status).toBe(403);
    expect(((await rebound.json()) as LooseJson).error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await post('null')).status).toBe(403);
    expect((await post(s.url)).status).toBe(401);
    const local = await post(s.url.replace('127.0.0.1', 'localhost'), agentKey(s, 'support-bot'));
    expect(local.status).toBe(200);
    await local.body?.cancel();
  });

  it("relays the upstream's progress after a held call's, never going back", async () => {
    const client = new Client({ name: 'test-agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${agentKey(s, 'support-bot')}` } },
      }),
    );
    try {
      const heard: Progress[] = [];
      let firstTick: () => void = () => undefined;
      const ticked = new Promise<void>((resolve) => {
        firstTick = resolve;
      });
      const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '500' } }, undefined, {
        timeout: 30_000,
        onprogress: (p) => {
          heard.push(p);
          firstTick();
        },
      });
      const approvalId = await pendingApprovalId(s);
      await ticked;
      await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
      expect(await pending).toMatchObject({ content: [{ type: 'text', text: 'Progress test completed' }] });
      const values = heard.map((p) => p.progress);
      expect(values[0]).toBeGreaterThanOrEqual(1);
      expect(values.every((v, i) => i === 0 || v > (values[i - 1] as number))).toBe(true);
      // The upstream's 0 came after a held second, so it was dropped; its 50 and 100 were not.
      expect(heard.slice(-2)).toEqual([
        { progress: 50, total: 100 },
        { progress: 100, total: 100 },
      ]);
    } finally {
      await client.close();
    }
  }, 30_000);
});
