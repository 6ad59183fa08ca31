// The cluster suite runs: every deployment (the PostgreSQL ones when PostgreSQL answers) takes a second of load
// of each variant, every call answers 2xx, and a call on PostgreSQL asks at most about two statements of it. Timing is the bench's (npm run bench -- cluster); nothing here reads
// a figure.
import { describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE } from '../../packages/store/test/postgres-fixture.ts';
import { measureCluster } from './cluster.bench.ts';

describe('measureCluster', () => {
  it('loads each deployment with each variant, every call allowed', async () => {
    const { runs, deployments, notes, perCall } = await measureCluster({ connections: 4, seconds: 1, runs: 1, warmupSeconds: 0 });
    const expected =
      POSTGRES_UNREACHABLE === undefined ? ['SQLite, 1 node', 'PostgreSQL, 1 node', 'PostgreSQL, 2 nodes'] : ['SQLite, 1 node'];
    expect(deployments).toEqual(expected);
    expect(runs.map((r) => `${r.deployment} / ${r.variant}`)).toEqual(expected.flatMap((d) => [`${d} / no session`, `${d} / session`]));
    for (const r of runs) {
      expect(r.perSecond, `${r.deployment} / ${r.variant}`).toBeGreaterThan(0);
      expect(r.failed, `${r.deployment} / ${r.variant}`).toBe(0);
    }
    // Counted on the wire, not timed: a call is one read before its write, with or without a session (the write
    // batched without one), where the transaction it replaced was five statements.
    expect(perCall.map((p) => p.variant)).toEqual(POSTGRES_UNREACHABLE === undefined ? ['no session', 'session'] : []);
    for (const p of perCall) {
      expect(p.calls, p.variant).toBeGreaterThan(0);
      // Without a session: at most one read a call and a share of its batch's write (two reads before).
      const bound = p.variant === 'session' ? 2.5 : 1.75;
      expect(p.statements / p.calls, p.variant).toBeLessThan(bound);
      expect(p.roundTrips / p.calls, p.variant).toBeLessThan(bound);
    }
    expect(notes).toEqual(POSTGRES_UNREACHABLE === undefined ? [] : [expect.stringContaining('not measured')]);
  }, 60_000);
});
