// Trials scoped and bounded (docs/review.md, "Trials on live calls"), over generated calls on SQLite and on
// PostgreSQL: calls of two agents and two tools, observed at once by two nodes (two PolicyTrials on one store, each
// counting through its own state instance) in any interleaving. A trial of one agent's calls of one tool, sampling
// every k-th and bounded by max_samples N, counts min(matching, its last call) calls and samples
// min(N, floor(matching / k)) of them, whatever the order they arrive in.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callLimit, FolderDocumentStore, PolicyTrials } from '@tollgate/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './server-harness.ts';
import { BACKENDS, titleOf } from './state-contract-backends.ts';

const ID = 'policies/refunds.policy.json';
const TEXT = readFileSync(join(REPO_ROOT, 'examples/refunds.policy.json'), 'utf8');
const AGREE = { decision: 'allow', rule: 'read-orders', code: null };
const DIFFER = { decision: 'deny', rule: null, code: 'DEFAULT' };

const scenario = fc.record({
  calls: fc.array(
    fc.record({
      agent: fc.constantFrom('support-bot', 'refunds-bot'),
      tool: fc.constantFrom('search_orders', 'read_order'),
      node: fc.constantFrom(0, 1),
      differs: fc.boolean(),
    }),
    { maxLength: 30 },
  ),
  maxSamples: fc.integer({ min: 1, max: 6 }),
  every: fc.integer({ min: 1, max: 3 }),
  // How many calls arrive at once: the interleaving.
  burst: fc.integer({ min: 1, max: 8 }),
});

const RUNS = { sqlite: 30, postgres: 6 };

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(`scoped trials on the ${titleOf(backend)}`, () => {
    it('samples min(N, matching / k) calls of its agent and tool, in any interleaving on two nodes', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ calls, maxSamples, every, burst }) => {
          const root = mkdtempSync(join(tmpdir(), 'tollgate-trial-scope-'));
          const f = await backend.open();
          const store = await FolderDocumentStore.open(root, { watch: false });
          try {
            await store.save({ id: ID, text: TEXT, author: { kind: 'person', label: 'ana' }, reason: 'running' });
            const candidate = await store.save({
              id: ID,
              text: TEXT.replace('"orders.search"', '"orders.find"'),
              author: { kind: 'person', label: 'ana' },
              reason: 'candidate',
              activate: false,
            });
            const nodes = [new PolicyTrials(store, { counter: f.a.trialCounter }), new PolicyTrials(store, { counter: f.b.trialCounter })];
            const trial = await (nodes[0] as PolicyTrials).start({
              document: ID,
              sequence: candidate.sequence,
              sampleRate: 1 / every,
              agent: 'support-bot',
              tool: 'search_orders',
              maxSamples,
            });
            const at = new Date();
            for (let i = 0; i < calls.length; i += burst) {
              await Promise.all(
                calls
                  .slice(i, i + burst)
                  .map((c, j) =>
                    (nodes[c.node] as PolicyTrials).observe(
                      trial,
                      { callId: `call-${i + j}`, agent: c.agent, tool: c.tool, at, argumentsDigest: `digest-${i + j}` },
                      AGREE,
                      () => (c.differs ? DIFFER : AGREE),
                    ),
                  ),
              );
            }
            const matching = calls.filter((c) => c.agent === 'support-bot' && c.tool === 'search_orders').length;
            const report = await (nodes[1] as PolicyTrials).report(ID);
            expect(report?.calls).toBe(Math.min(matching, callLimit(maxSamples, 1 / every)));
            expect(report?.sampled).toBe(Math.min(maxSamples, Math.floor(matching / every)));
            expect(report?.ended).toBe(report?.sampled === maxSamples ? 'max_samples' : null);
            expect((report?.agreed ?? 0) + (report?.differed ?? 0)).toBe(report?.sampled);
          } finally {
            await store.close();
            await f.close();
            rmSync(root, { recursive: true, force: true });
          }
        }),
        { numRuns: RUNS[backend.name] },
      );
    }, 240_000);
  });
}
