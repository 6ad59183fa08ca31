// The review pool over real HTTP on loopback: an impact preview whose analysis is long (fourteen deny rules
// of two conditions each, so 2^14 regions until the edited last rule) runs on a thread of its own while the
// gate answers; it is listed in GET /v1/review/queue; a caller that leaves cancels it, queued or running;
// and past its time budget it answers 422 ANALYSIS_OVER_BUDGET with nothing partial.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const DOC = `/v1/documents/${encodeURIComponent(POLICY)}`;
const REFUNDS = JSON.parse(readFileSync(new URL('../../../examples/refunds.policy.json', import.meta.url), 'utf8'));

/** The demo policy with `count` chained deny rules on orders.read, the last one's effect as given. */
function chained(count: number, last: 'deny' | 'require_approval'): string {
  const extra = Array.from({ length: count }, (_, i) => ({
    id: `chain-${i}`,
    actions: ['orders.read'],
    when: [
      { path: `/a${i}`, eq: 'x' },
      { path: `/b${i}`, eq: 'y' },
    ],
    effect: i === count - 1 ? last : 'deny',
    ...(i === count - 1 && last === 'require_approval' ? { approvers: { roles: ['owner'] } } : {}),
  }));
  return `${JSON.stringify({ ...REFUNDS, rules: [...extra, ...REFUNDS.rules] }, null, 2)}\n`;
}

let server: TestServer;
let running: number;
let candidate: number;
const LINKS = 14;

beforeAll(async () => {
  server = await startServer();
  running = await save(chained(LINKS, 'deny'), 'chain');
  candidate = await save(chained(LINKS, 'require_approval'), 'the last link held');
}, 120_000);

/** Saves `content` as a new version of the policy and makes it run; its sequence. */
async function save(content: string, reason: string): Promise<number> {
  const now = await okJson(server.call('GET', DOC, { key: server.key('viewer') }));
  const edit = await server.call('POST', `${DOC}/edits`, {
    key: server.key('owner'),
    body: { content, reason, based_on: now.version.sequence },
  });
  expect(edit.status, JSON.stringify(edit.json)).toBe(201);
  const sequence = edit.json.version.sequence as number;
  if (edit.json.status === 'saved_not_running') {
    await okJson(server.call('POST', `${DOC}/activate`, { key: server.key('owner'), body: { sequence } }));
  }
  return sequence;
}

afterEach(() => {
  delete process.env.TOLLGATE_REVIEW_TIME_MS;
});

afterAll(async () => {
  await server.stop();
});

async function queue(): Promise<LooseJson[]> {
  return (await okJson(server.call('GET', '/v1/review/queue', { key: server.key('viewer') }))).jobs;
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts the long preview with its own AbortController; the promise settles with the status or the abort. */
function longPreview() {
  const controller = new AbortController();
  const url = `${server.url}${DOC}/impact-preview?running=${running}&candidate=${candidate}`;
  const answer = fetch(url, { headers: { authorization: `Bearer ${server.key('viewer')}` }, signal: controller.signal }).then(
    async (r) => ({ status: r.status, json: (await r.json()) as LooseJson }),
    (err: Error) => ({ status: 0, json: { aborted: err.name } as LooseJson }),
  );
  return { controller, answer };
}

describe('the review pool', () => {
  it('runs a long analysis off the event loop, lists it, and stops it when its caller leaves', async () => {
    process.env.TOLLGATE_REVIEW_TIME_MS = '120000';
    const { controller, answer } = longPreview();
    await until(async () => (await queue()).some((j) => j.state === 'running' && j.kind === 'preview'), 'the preview to run');
    // The gate answers while the analysis runs: the job is still listed after the call is decided.
    const call = await server.call('POST', '/v1/agents/support-bot/calls', {
      key: server.key('agent'),
      body: { tool: 'read_order', arguments: { order_id: 'o-1' } },
    });
    expect(call.status).toBe(200);
    expect((await queue()).map((j) => j.state)).toEqual(['running']);
    controller.abort();
    expect((await answer).status).toBe(0);
    // Cancelled on its thread, long before its two-minute budget.
    await until(async () => (await queue()).length === 0, 'the cancelled job to leave the pool');
  });

  it('queues past its threads, says how many wait ahead, and drops a queued job whose caller leaves', async () => {
    process.env.TOLLGATE_REVIEW_TIME_MS = '120000';
    const jobs = [longPreview(), longPreview(), longPreview()];
    await until(async () => (await queue()).length === 3, 'three jobs');
    const standing = await queue();
    expect(standing.map((j) => [j.state, j.ahead ?? null])).toEqual([
      ['running', null],
      ['running', null],
      ['queued', 0],
    ]);
    (jobs[2] as (typeof jobs)[number]).controller.abort();
    await until(async () => (await queue()).length === 2, 'the queued job to be dropped');
    for (const j of jobs) j.controller.abort();
    await until(async () => (await queue()).length === 0, 'every job to stop');
  });

  it('answers 422 ANALYSIS_OVER_BUDGET past its time budget, with no region list', async () => {
    process.env.TOLLGATE_REVIEW_TIME_MS = '300';
    const { answer } = longPreview();
    const { status, json } = await answer;
    expect(status).toBe(422);
    expect(json.error.code).toBe('ANALYSIS_OVER_BUDGET');
    expect(json.error.details).toEqual({ limit: 'time' });
    expect(json.catalogues).toBeUndefined();
    expect(await queue()).toEqual([]);
  });
});
