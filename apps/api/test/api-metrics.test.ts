// GET /metrics over real HTTP (observability/metrics.ts, docs/deploy.md "Metrics and traces"): who may scrape
// (an owner, an admin, a key with the metrics grant; 401 without a key, 403 for others), every family present,
// and the values moving with calls allowed, refused and held, an approval and its claim; no argument value in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const FAMILIES = [
  'tollgate_decisions_total',
  'tollgate_gate_duration_seconds',
  'tollgate_approvals_pending',
  'tollgate_approvals_oldest_pending_age_seconds',
  'tollgate_held_waits_total',
  'tollgate_held_wait_duration_seconds',
  'tollgate_claims_total',
  'tollgate_shadow_calls_total',
  'tollgate_shadow_differences_total',
  'tollgate_trial_calls_total',
  'tollgate_trial_differences_total',
  'tollgate_decision_log_queued',
  'tollgate_decision_log_lag_seconds',
  'tollgate_db_pool_connections',
  'tollgate_db_pool_idle_connections',
  'tollgate_db_pool_waiting_clients',
  'tollgate_db_pool_errors_total',
  'tollgate_mcp_sessions',
  'tollgate_upstream_calls_total',
  'tollgate_upstream_call_duration_seconds',
  'nodejs_eventloop_lag_seconds',
];

async function scrape(key = s.key('admin')): Promise<string> {
  const r = await s.call('GET', '/metrics', { key });
  expect(r.status, r.text).toBe(200);
  return r.text;
}

/** The value of one sample, `name{labels}` exactly as Prometheus' text writes it (labels in declared order). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const call = (args: Record<string, unknown>) =>
  s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: args } });

describe('GET /metrics', () => {
  it('answers 401 without a key and 403 GRANT_REQUIRED for a viewer, a developer and an agent', async () => {
    const none = await s.call('GET', '/metrics');
    expect([none.status, none.json?.error?.code]).toEqual([401, 'MISSING_KEY']);
    for (const who of ['viewer', 'developer', 'approver', 'agent'] as const) {
      const r = await s.call('GET', '/metrics', { key: s.key(who) });
      expect([r.status, r.json?.error?.code], who).toEqual([403, 'GRANT_REQUIRED']);
    }
  });

  it('answers an owner, an admin and a viewer key with the metrics grant, in the Prometheus text format', async () => {
    const viewer = s.keys.members.find((m) => m.role === 'viewer');
    const granted = await s.ctx.state.createKey({ member: viewer?.id as string }, ['metrics']);
    for (const key of [s.key('owner'), s.key('admin'), granted]) {
      const r = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      await r.text();
    }
  });

  it('has every family, and its values move with calls allowed, refused and held, an approval and a claim', async () => {
    const before = await scrape();
    for (const family of FAMILIES) expect(before, family).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
    const series = (outcome: string, code: string) => `tollgate_decisions_total{outcome="${outcome}",code="${code}",via="http"}`;

    expect((await call({ amount: '50', order: 'M-1' })).json.decision).toBe('allow');
    expect((await call({ amount: '5000', order: 'M-2' })).json.decision).toBe('deny');
    const held = await call({ amount: '500', order: 'SECRET-ORDER-417' });
    expect(held.json.decision).toBe('require_approval');
    const id = held.json.approval.id as string;

    const during = await scrape();
    expect(sample(during, series('allow', 'none')) - sample(before, series('allow', 'none'))).toBe(1);
    const refusedBefore = before.split('\n').filter((l) => l.startsWith('tollgate_decisions_total{outcome="deny"'));
    const refusedNow = during.split('\n').filter((l) => l.startsWith('tollgate_decisions_total{outcome="deny"'));
    const total = (lines: string[]) => lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(total(refusedNow) - total(refusedBefore)).toBe(1);
    expect(
      sample(during, 'tollgate_gate_duration_seconds_count{via="http"}') -
        sample(before, 'tollgate_gate_duration_seconds_count{via="http"}'),
    ).toBe(3);
    expect(sample(during, 'tollgate_approvals_pending')).toBe(sample(before, 'tollgate_approvals_pending') + 1);
    expect(sample(during, 'tollgate_approvals_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    // The pool's gauges read the PostgreSQL pool at scrape; SQLite has none.
    if (s.ctx.state.kind === 'postgres') expect(sample(during, 'tollgate_db_pool_connections')).toBeGreaterThan(0);
    else expect(sample(during, 'tollgate_db_pool_connections')).toBe(0);
    // Never an argument value, in any label.
    expect(during).not.toContain('SECRET-ORDER-417');

    const approved = await s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('approver'), body: {} });
    expect(approved.status).toBe(200);
    const claimed = await s.call('POST', `/v1/approvals/${id}/claim`, {
      key: s.key('agent'),
      body: { arguments: { amount: '500', order: 'SECRET-ORDER-417' } },
    });
    expect(claimed.status).toBe(200);
    const again = await s.call('POST', `/v1/approvals/${id}/claim`, {
      key: s.key('agent'),
      body: { arguments: { amount: '500', order: 'SECRET-ORDER-417' } },
    });
    expect(again.status).toBe(409);

    const after = await scrape();
    expect(sample(after, 'tollgate_approvals_pending')).toBe(sample(before, 'tollgate_approvals_pending'));
    expect(sample(after, 'tollgate_claims_total{outcome="claimed"}') - sample(before, 'tollgate_claims_total{outcome="claimed"}')).toBe(1);
    expect(sample(after, 'tollgate_claims_total{outcome="already_claimed"}')).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('SECRET-ORDER-417');
  });

  it('keeps each app on its own registry: a second server counts only its own calls', async () => {
    const other = await startServer();
    try {
      const r = await other.call('GET', '/metrics', { key: other.key('admin') });
      expect(sample(r.text, 'tollgate_decisions_total{outcome="allow",code="none",via="http"}')).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
