// Every deny told once (webhooks/denies.ts, docs/webhooks.md "Every deny"), over generated histories on SQLite and on
// PostgreSQL: denies and other decisions written in any order of their decision times (a batch written late, after the
// cursor moved past its time), read by two nodes' fan-outs at generated clocks. Once every write has settled, each
// deny decided after the subscription was made is in the outbox exactly once, and none from before it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../src/server/context.ts';
import type { SubscriptionRow } from '../src/server/state/webhooks/model.ts';
import { sealWebhookSecret } from '../src/server/state/webhooks/sealed-secret.ts';
import { fanOutDenies, LAG_MS } from '../src/server/webhooks/denies.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
import { BACKENDS, decisionRow, type StateFixture, titleOf } from './state-contract-backends.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const SUBSCRIBED_AT = T0 + 10_000;

const SUB: SubscriptionRow = {
  id: 'wh_denies',
  url: 'https://93.184.216.34/hook',
  events: '["decision.denied"]',
  filters: '{}',
  include_arguments: 0,
  format: 'standard',
  secret: sealWebhookSecret('whsec_AAAA', testCustodialKeys(), 'wh_denies'),
  created_at: new Date(SUBSCRIBED_AT).toISOString(),
  created_by: 'ana',
  removed_at: null,
};

const steps = fc.array(
  fc.oneof(
    fc.record({
      step: fc.constant('write' as const),
      decision: fc.constantFrom('deny' as const, 'allow' as const),
      // Decided up to a minute before or after the subscription; written whenever the step comes.
      at: fc.integer({ min: -60_000, max: 60_000 }),
      node: fc.constantFrom(0 as const, 1 as const),
    }),
    fc.record({
      step: fc.constant('fan out' as const),
      node: fc.constantFrom(0 as const, 1 as const),
      advance: fc.integer({ min: 0, max: 40_000 }),
    }),
  ),
  { maxLength: 30 },
);

const RUNS = { sqlite: 25, postgres: 4 };

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(`every deny told once on the ${titleOf(backend)}`, () => {
    it('tells each deny decided after the subscription once, however late it is written or often it is read', async () => {
      await fc.assert(
        fc.asyncProperty(steps, async (history) => {
          const f: StateFixture = await backend.open();
          try {
            await f.a.webhooks.create(SUB);
            const nodes = [f.a, f.b].map((state) => ({ ctx: { state } as unknown as AppContext, seen: new Map<string, number>() }));
            let clock = SUBSCRIBED_AT;
            const told = new Set<string>();
            for (const s of history) {
              if (s.step === 'write') {
                const row = decisionRow({ decision: s.decision, at: new Date(SUBSCRIBED_AT + s.at) });
                await (s.node === 0 ? f.a : f.b).recordDecision(row.agent, undefined, () => ({ row }));
                await (s.node === 0 ? f.a : f.b).flushDecisions();
                if (s.decision === 'deny' && SUBSCRIBED_AT + s.at >= SUBSCRIBED_AT) told.add(row.call_id);
              } else {
                clock += s.advance;
                const node = nodes[s.node] as (typeof nodes)[number];
                await fanOutDenies(node.ctx, new Date(clock), node.seen);
              }
            }
            // Every write settled: a last fan-out on each node, well past the lag.
            for (const node of nodes) await fanOutDenies(node.ctx, new Date(clock + LAG_MS + 60_000), node.seen);
            const rows = await f.a.webhooks.lease('check', new Date(clock + 10 * LAG_MS), 30_000, 10_000);
            const keys = rows.map((r) => r.event_key);
            expect(keys.length).toBe(new Set(keys).size);
            expect(new Set(keys)).toEqual(new Set([...told].map((id) => `${id}:denied`)));
          } finally {
            await f.close();
          }
        }),
        { numRuns: RUNS[backend.name] },
      );
    }, 240_000);
  });
}
