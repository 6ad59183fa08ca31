// Trials on live calls over real HTTP (docs/review.md, "Trials on live calls"): a trial of a candidate policy
// sees the gate's calls after they are answered, counts them in the database without losing any to
// concurrency, lists differing calls with both answers, streams its counts as `trial` events, and keeps them
// across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { agentKey, type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';
import { eventsOf, openEvents } from './sse-client.ts';

const REFUNDS_ID = 'policies/refunds.policy.json';
const TRIAL = `/v1/trials/${encodeURIComponent(REFUNDS_ID)}`;

/** The refunds policy with orders.search no longer allowed: the candidate differs on that one tool. */
function withoutSearch(): string {
  const doc = JSON.parse(REFUNDS_POLICY_TEXT);
  doc.rules[0].actions = ['orders.read'];
  return `${JSON.stringify(doc, null, 2)}\n`;
}

let servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers) await s.stop();
  servers = [];
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A server on `dataDir`, or on a new folder this file removes after the test (so a restart finds it). */
async function serve(dataDir?: string): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'tollgate-trials-'));
  if (dataDir === undefined) dirs.push(dir);
  const s = await startServer({ dataDir: dir });
  servers.push(s);
  return s;
}

async function startTrial(s: TestServer, body: Record<string, unknown>): Promise<LooseJson> {
  const candidate = await s.ctx.store.save({
    id: REFUNDS_ID,
    text: withoutSearch(),
    author: { kind: 'person', label: 'test' },
    reason: 'search is no longer allowed',
    activate: false,
  });
  return okJson(
    s.call('POST', '/v1/trials', { key: s.key('owner'), body: { document: REFUNDS_ID, sequence: candidate.sequence, ...body } }),
    201,
  );
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

function gateCall(s: TestServer, tool: string) {
  return s.call('POST', '/v1/agents/support-bot/calls', { key: agentKey(s, 'support-bot'), body: { tool, arguments: { id: '7' } } });
}

describe('trials on live calls', () => {
  it('counts 50 concurrent gate calls exactly, answers with the running version, and keeps the counts across a restart', async () => {
    const first = await serve();
    const started = await startTrial(first, { sample_every: 1 });
    expect(started).toMatchObject({ sample_rate: 1, calls: 0, sampled: 0, running: true, differences: [] });
    const events = await openEvents(first.url, first.key('viewer'));

    const tools = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 'read_order' : 'search_orders'));
    const answers = await Promise.all(tools.map((tool) => gateCall(first, tool)));
    // The callers hear the running version: search is still allowed.
    for (const a of answers) expect([a.status, a.json.decision, a.json.rule]).toEqual([200, 'allow', 'read-orders']);

    const trial = await trialWhen(first, (t) => t.sampled === 50);
    expect(trial).toMatchObject({ calls: 50, sampled: 50, agreed: 25, differed: 25, running: true });
    const searchIds = answers.filter((_, i) => tools[i] === 'search_orders').map((a) => a.json.call_id);
    expect([...trial.differing].sort()).toEqual([...searchIds].sort());
    expect(trial.differences).toHaveLength(25);
    for (const d of trial.differences) {
      expect(d.running).toEqual({ decision: 'allow', rule: 'read-orders', code: null });
      expect(d.candidate).toEqual({ decision: 'deny', rule: null, code: 'DEFAULT' });
    }
    // The stream carries the counts, throttled, ending with the final ones.
    const text = await events.readUntil((t) => eventsOf(t).some((e) => e.event === 'trial' && (e.data as LooseJson).sampled === 50));
    events.close();
    const trialEvents = eventsOf(text).filter((e) => e.event === 'trial');
    expect(trialEvents.length).toBeLessThan(50);
    expect(trialEvents.at(-1)?.data).toMatchObject({ type: 'trial', document: REFUNDS_ID, calls: 50, agreed: 25, differed: 25 });

    await first.stop();
    servers = [];
    const again = await serve(first.dataDir);
    expect(await okJson(again.call('GET', TRIAL, { key: again.key('viewer') }))).toMatchObject({
      calls: 50,
      sampled: 50,
      agreed: 25,
      differed: 25,
      running: true,
    });
    await gateCall(again, 'search_orders');
    expect(await trialWhen(again, (t) => t.sampled === 51)).toMatchObject({ agreed: 25, differed: 26 });
  });

  it('samples every n-th call, stops counting once stopped, and refuses two ways of saying the rate', async () => {
    const s = await serve();
    await startTrial(s, { sample_every: 4 });
    for (let i = 0; i < 8; i++) await gateCall(s, 'search_orders');
    // A call is counted, then its sample: two writes on PostgreSQL (state/trials/postgres.ts), so the eighth call's
    // sample is waited for too, not only its count.
    expect(await trialWhen(s, (t) => t.calls === 8 && t.sampled === 2)).toMatchObject({
      sample_rate: 0.25,
      sampled: 2,
      differed: 2,
      agreed: 0,
    });
    const stopped = await okJson(s.call('POST', `${TRIAL}/stop`, { key: s.key('admin') }));
    expect(stopped).toMatchObject({ running: false, calls: 8 });
    await gateCall(s, 'search_orders');
    await new Promise((r) => setTimeout(r, 100));
    expect(await okJson(s.call('GET', TRIAL, { key: s.key('viewer') }))).toMatchObject({ calls: 8, sampled: 2 });

    const both = await s.call('POST', '/v1/trials', {
      key: s.key('owner'),
      body: { document: REFUNDS_ID, sequence: 2, sample_rate: 1, sample_every: 1 },
    });
    const neither = await s.call('POST', '/v1/trials', { key: s.key('owner'), body: { document: REFUNDS_ID, sequence: 2 } });
    expect([both.status, neither.status]).toEqual([400, 400]);
  });
});
