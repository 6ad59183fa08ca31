// The cluster suite runs: every deployment (the PostgreSQL ones when PostgreSQL answers) takes a second of load
// of each variant, and every call answers 2xx. Timing is the bench's (npm run bench -- cluster); nothing here reads
// a figure.
import { describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE } from '../../packages/store/test/postgres-fixture.ts';
import { measureCluster } from './cluster.bench.ts';

describe('measureCluster', () => {
  it('loads each deployment with each variant, every call allowed', async () => {
    const { runs, deployments, notes } = await measureCluster({ connections: 4, seconds: 1, runs: 1, warmupSeconds: 0 });
    const expected =
      POSTGRES_UNREACHABLE === undefined ? ['SQLite, 1 node', 'PostgreSQL, 1 node', 'PostgreSQL, 2 nodes'] : ['SQLite, 1 node'];
    expect(deployments).toEqual(expected);
    expect(runs.map((r) => `${r.deployment} / ${r.variant}`)).toEqual(expected.flatMap((d) => [`${d} / no session`, `${d} / session`]));
    for (const r of runs) {
      expect(r.perSecond, `${r.deployment} / ${r.variant}`).toBeGreaterThan(0);
      expect(r.failed, `${r.deployment} / ${r.variant}`).toBe(0);
    }
    expect(notes).toEqual(POSTGRES_UNREACHABLE === undefined ? [] : [expect.stringContaining('not measured')]);
  }, 60_000);
});
