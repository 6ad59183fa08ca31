// Trials scoped and bounded, over real HTTP (docs/review.md, "Trials on live calls"): a trial of one agent or one
// tool samples only its calls, one with max_samples ends after that many, one with ends_at samples no call decided
// from then on, and every differing call is kept and listed page by page with its call id and arguments' digest.
import { afterEach, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { agentKey, type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

const REFUNDS_ID = 'policies/refunds.policy.json';
const TRIAL = `/v1/trials/${encodeURIComponent(REFUNDS_ID)}`;

/** The refunds policy with orders.search no longer allowed: the candidate differs on that one tool. */
function withoutSearch(): string {
  const doc = JSON.parse(REFUNDS_POLICY_TEXT);
  doc.rules[0].actions = ['orders.read'];
  return `${JSON.stringify(doc, null, 2)}\n`;
}

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.stop();
  servers = [];
});

async function serve(options: { now?: () => Date } = {}): Promise<TestServer> {
  const s = await startServer(options);
  servers.push(s);
  return s;
}

async function candidate(s: TestServer): Promise<number> {
  const saved = await s.ctx.store.save({
    id: REFUNDS_ID,
    text: withoutSearch(),
    author: { kind: 'person', label: 'test' },
    reason: 'search is no longer allowed',
    activate: false,
  });
  return saved.sequence;
}

function startTrial(s: TestServer, sequence: number, body: Record<string, unknown>) {
  return s.call('POST', '/v1/trials', { key: s.key('owner'), body: { document: REFUNDS_ID, sequence, sample_every: 1, ...body } });
}

/** Reads the trial until `until` holds of it (the counts are written after each call's answer). */
async function trialWhen(s: TestServer, until: (trial: LooseJson) => boolean): Promise<LooseJson> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const trial = await okJson(s.call('GET', TRIAL, { key: s.key('viewer') }));
    if (until(trial)) return trial;
    if (Date.now() > deadline) throw new Error(`the trial never got there: ${JSON.stringify(trial)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the counts have stood still a moment: for a test that some calls are not counted. */
async function settled(s: TestServer): Promise<LooseJson> {
  let last = '';
  for (;;) {
    await new Promise((r) => setTimeout(r, 150));
    const trial = await okJson(s.call('GET', TRIAL, { key: s.key('viewer') }));
    const now = JSON.stringify([trial.calls, trial.sampled]);
    if (now === last) return trial;
    last = now;
  }
}

function gateCall(s: TestServer, tool: string, agent = 'support-bot', args: Record<string, unknown> = { id: '7' }) {
  return s.call('POST', `/v1/agents/${agent}/calls`, { key: agentKey(s, agent), body: { tool, arguments: args } });
}

describe('trials scoped and bounded', () => {
  it("samples only its agent's calls of its tool", async () => {
    const s = await serve();
    const started = await okJson(startTrial(s, await candidate(s), { agent: 'support-bot', tool: 'search_orders' }), 201);
    expect(started).toMatchObject({ agent: 'support-bot', tool: 'search_orders', ends_at: null, max_samples: null, ended: null });
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      mine.push((await gateCall(s, 'search_orders')).json.call_id);
      await gateCall(s, 'read_order');
      // refunds-bot runs the same policy through its rule set: without the scope, its calls would be sampled too.
      expect((await gateCall(s, 'search_orders', 'refunds-bot')).status).toBe(200);
    }
    const trial = await trialWhen(s, (t) => t.sampled === 3);
    expect(await settled(s)).toMatchObject({ calls: 3, sampled: 3, differed: 3, running: true });
    expect([...trial.differing].sort()).toEqual([...mine].sort());
    // Started again for the tool alone, refunds-bot's calls are sampled: the agent scope was what left them out.
    await okJson(startTrial(s, started.candidate, { tool: 'search_orders' }), 201);
    await gateCall(s, 'search_orders', 'refunds-bot');
    await gateCall(s, 'read_order', 'refunds-bot');
    expect(await trialWhen(s, (t) => t.sampled === 1)).toMatchObject({ agent: null, calls: 1, differed: 1 });
  });

  it('ends after max_samples sampled calls, however many arrive at once', async () => {
    const s = await serve();
    await okJson(startTrial(s, await candidate(s), { max_samples: 3, sample_every: 2 }), 201);
    const answers = await Promise.all(Array.from({ length: 20 }, () => gateCall(s, 'search_orders')));
    for (const a of answers) expect(a.json.decision).toBe('allow');
    await trialWhen(s, (t) => t.sampled === 3);
    // The sixth call is the third sampled one: counting stops there.
    expect(await settled(s)).toMatchObject({ calls: 6, sampled: 3, differed: 3, running: false, ended: 'max_samples' });
  });

  it('samples no call decided from ends_at on, and says it ended', async () => {
    let clock = new Date('2030-01-01T00:00:00.000Z');
    const s = await serve({ now: () => clock });
    const sequence = await candidate(s);
    const past = await startTrial(s, sequence, { ends_at: '2029-12-31T23:00:00Z' });
    expect([past.status, past.json.error.code]).toEqual([400, 'INVALID_SAVE']);
    await okJson(startTrial(s, sequence, { ends_at: '2030-01-01T00:01:00Z' }), 201);
    await gateCall(s, 'search_orders');
    await gateCall(s, 'search_orders');
    await trialWhen(s, (t) => t.sampled === 2);
    clock = new Date('2030-01-01T00:01:00.000Z');
    await gateCall(s, 'search_orders');
    expect(await settled(s)).toMatchObject({ calls: 2, sampled: 2, running: false, ended: 'ends_at' });
    // Stopped, it says so.
    expect(await okJson(s.call('POST', `${TRIAL}/stop`, { key: s.key('admin') }))).toMatchObject({ running: false, ended: 'stopped' });
  });

  it('keeps all 250 differing calls and lists them across pages with call ids and digests', async () => {
    const s = await serve();
    await okJson(startTrial(s, await candidate(s), {}), 201);
    const calls: string[] = [];
    for (let i = 0; i < 250; i++) calls.push((await gateCall(s, 'search_orders', 'support-bot', { q: `secret-${i}` })).json.call_id);
    const trial = await trialWhen(s, (t) => t.differed === 250);

    const listed: LooseJson[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=100' : `?limit=100&cursor=${cursor}`;
      const page: LooseJson = await okJson(s.call('GET', `${TRIAL}/differences${query}`, { key: s.key('viewer') }));
      expect(page.started_at).toBe(trial.started_at);
      listed.push(...page.differences);
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    // Every call once, newest recorded first (a trial records a call after its answer, so two calls close together
    // may be recorded out of their order); the report lists the newest 100 of the same list, oldest first.
    expect(listed.map((d) => d.call_id).sort()).toEqual([...calls].sort());
    expect(trial.differing).toEqual(
      listed
        .slice(0, 100)
        .map((d) => d.call_id)
        .reverse(),
    );
    for (const d of listed.slice(0, 3)) {
      const decision = await okJson(s.call('GET', `/v1/decisions/${d.call_id}`, { key: s.key('viewer') }));
      expect(d.arguments_digest).toBe(decision.arguments_digest);
    }
    expect(new Set(listed.map((d) => d.arguments_digest)).size).toBe(250);
    expect(listed[0]).toEqual({
      call_id: expect.any(String),
      arguments_digest: expect.any(String),
      running: { decision: 'allow', rule: 'read-orders', code: null },
      candidate: { decision: 'deny', rule: null, code: 'DEFAULT' },
    });
    expect(JSON.stringify(listed)).not.toContain('secret-');

    const bad = await s.call('GET', `${TRIAL}/differences?cursor=bm90LWEtY3Vyc29y`, { key: s.key('viewer') });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('refuses bounds that make no trial, and lists no differences of a policy without one', async () => {
    const s = await serve();
    const none = await s.call('GET', `${TRIAL}/differences`, { key: s.key('viewer') });
    expect([none.status, none.json.error.code, none.json.error.details.resource]).toEqual([404, 'NOT_FOUND', 'trial']);
    const sequence = await candidate(s);
    const zero = await startTrial(s, sequence, { max_samples: 0 });
    const notTime = await startTrial(s, sequence, { ends_at: 'tomorrow' });
    const emptyAgent = await startTrial(s, sequence, { agent: '' });
    expect([zero.status, notTime.status, emptyAgent.status]).toEqual([400, 400, 400]);
    expect(zero.json.error.code).toBe('INVALID_BODY');
  });
});
