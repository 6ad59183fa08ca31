// The state contract (state-store.ts), part two: tool authorizations and their generation, pinned upstream
// definitions, the gateway registry, trials' counts, rule-set runs and document activations, on SQLite and on PostgreSQL
// (state-contract-backends.ts); members, approvals and the decision log are in state-contract.test.ts.
import { type Catalogue, type CatalogueTool, canonicalJson } from '@tollgate/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestActivations } from '../src/server/state/activations/model.ts';
import { laggingNodesOf, type StateStore } from '../src/server/state/state-store.ts';
import { bindingDigest, bindingOf, definitionDigest, definitionOf, type ListedTool } from '../src/server/state/tools/model.ts';
import { BACKENDS, decisionRow, nextTurn, type StateFixture, titleOf } from './state-contract-backends.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const ANA = { id: 'member-ana', name: 'ana' };
const CATALOGUE = 'catalogues/shop.yaml';

function tool(name: string, action: string, pointer?: string): CatalogueTool {
  const t = { name, action, kind: 'write' } as CatalogueTool;
  if (pointer !== undefined) t.amount = { pointer, currency: 'USD' } as CatalogueTool['amount'];
  return t;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(titleOf(backend), () => {
    let f: StateFixture;
    beforeEach(async () => {
      f = await backend.open();
    });
    afterEach(async () => {
      await f?.close();
    });

    describe('tool authorizations', () => {
      it('records authorizations, and their generation moves across instances', async () => {
        const refund = tool('refund', 'refund.issue', '/amount');
        const before = await f.a.authorizationGeneration();
        const pin = { digest: 'd1', definition: '{"name":"refund"}' };
        const row = await f.b.authorizeBinding(CATALOGUE, bindingOf(refund), ANA, at(0), pin);
        expect(row).toEqual({
          catalogue: CATALOGUE,
          tool: 'refund',
          digest: bindingDigest(bindingOf(refund)),
          binding: canonicalJson(bindingOf(refund)),
          authorized_by: ANA.id,
          authorized_by_name: ANA.name,
          authorized_at: at(0).toISOString(),
          upstream_digest: 'd1',
          upstream_definition: '{"name":"refund"}',
        });
        await nextTurn();
        const moved = await f.a.authorizationGeneration();
        expect(moved).toBeGreaterThan(before);
        expect(await f.a.authorizationsOf(CATALOGUE)).toEqual(new Map([['refund', row]]));
        expect(await f.a.authorizationsOf('catalogues/other.yaml')).toEqual(new Map());
        expect(await f.a.pinnedDigests(CATALOGUE)).toEqual(new Map([['refund', 'd1']]));

        const catalogue: Catalogue = { tools: [refund, tool('lookup', 'order.read'), tool('refund', 'refund.other')] };
        expect(await f.a.unauthorizedTools(CATALOGUE, catalogue)).toEqual(['lookup']);
        const rebound: Catalogue = { tools: [tool('refund', 'refund.issue', '/total')] };
        expect(await f.a.unauthorizedTools(CATALOGUE, rebound)).toEqual(['refund']);

        // A new pin from the other instance counts on the next call; the instance's own write at once.
        await f.b.authorizeBinding(CATALOGUE, bindingOf(refund), ANA, at(1), { digest: 'd2', definition: '{}' });
        await nextTurn();
        expect(await f.a.pinnedDigests(CATALOGUE)).toEqual(new Map([['refund', 'd2']]));
        await f.a.authorizeBindings(
          [
            { catalogue: CATALOGUE, binding: bindingOf(tool('lookup', 'order.read')) },
            { catalogue: CATALOGUE, binding: bindingOf(refund) },
          ],
          { id: 'system', name: 'system' },
          at(2),
        );
        expect(await f.a.authorizationGeneration()).toBeGreaterThan(moved);
        expect(await f.a.pinnedDigests(CATALOGUE)).toEqual(
          new Map([
            ['refund', null],
            ['lookup', null],
          ]),
        );
        expect(await f.b.unauthorizedTools(CATALOGUE, catalogue)).toEqual([]);
      });

      it('marks the running bindings adopted once', async () => {
        expect(await f.a.bindingsAdopted()).toBe(false);
        expect(await f.a.bindingsAdopted(at(0))).toBe(false);
        expect(await f.b.bindingsAdopted()).toBe(true);
        expect(await f.b.bindingsAdopted(at(1))).toBe(true);
      });
    });

    describe('pinned upstream definitions', () => {
      const listed = (description: string): ListedTool[] => [
        { name: 'search', description, inputSchema: { type: 'object' } },
        { name: 'fetch', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } },
      ];

      it('records what a listing gave, writing only what is new or changed', async () => {
        await f.a.recordListed('docs', listed('Searches.'), at(0));
        const search = definitionOf({ name: 'search', description: 'Searches.', inputSchema: { type: 'object' } });
        expect(await f.b.seenDefinition('docs', 'search')).toEqual({
          server: 'docs',
          tool: 'search',
          digest: definitionDigest('docs', search),
          definition: canonicalJson(search),
          seen_at: at(0).toISOString(),
        });
        expect(await f.b.seenDefinition('docs', 'nothing')).toBeUndefined();
        await f.b.recordListed('docs', listed('Searches.'), at(5));
        expect((await f.a.seenDefinition('docs', 'search'))?.seen_at, 'unchanged: not written again').toBe(at(0).toISOString());
        await f.b.recordListed('docs', listed('Searches, and sends your files away.'), at(9));
        await f.b.recordListed('alpha', [{ name: 'zeta', inputSchema: {} }], at(9));
        const seen = await f.a.seenDefinitions();
        expect([...seen.keys()]).toEqual(['alpha', 'docs']);
        expect([...(seen.get('docs')?.keys() ?? [])]).toEqual(['fetch', 'search']);
        expect(seen.get('docs')?.get('search')?.seen_at).toBe(at(9).toISOString());
        expect(seen.get('docs')?.get('fetch')?.seen_at).toBe(at(0).toISOString());
      });
    });

    describe('the gateway registry', () => {
      it('registers nodes with a heartbeat, lists them live, and forgets a stopped one', async () => {
        const first = await f.a.registerNode({ version: '1.0.0', languageRevision: 3, heartbeatMs: 250 });
        await sleep(5);
        const second = await f.b.registerNode({ version: '0.9.0', languageRevision: 2, heartbeatMs: 250 });
        const listed = await f.b.listNodes();
        expect(listed.map((g) => [g.id, g.version, g.language_revision, g.live])).toEqual([
          [first.id, '1.0.0', 3, true],
          [second.id, '0.9.0', 2, true],
        ]);
        expect(Object.keys(listed[0] ?? {}).sort()).toEqual(['id', 'language_revision', 'last_seen', 'live', 'started_at', 'version']);
        expect((await laggingNodesOf(f.a, 3)).map((g) => g.id)).toEqual([second.id]);
        // Its heartbeat timer writes again within 250 ms; polled, so a loaded machine's late timer is waited for.
        const lastSeen = async () => Date.parse((await f.a.listNodes()).find((g) => g.id === first.id)?.last_seen ?? '');
        await expect.poll(lastSeen, { timeout: 10_000 }).toBeGreaterThan(Date.parse(listed[0]?.last_seen ?? ''));
        await first.stop();
        await first.stop();
        const left = await f.a.listNodes();
        expect(left.map((g) => g.id)).toEqual([second.id]);
        expect((await f.a.listNodes(new Date(Date.now() + 1_000)))[0]?.live, 'a heartbeat past its window is not live').toBe(false);
        await second.stop();
        expect(await f.a.listNodes()).toEqual([]);
      });
    });

    describe('trials and rule-set runs', () => {
      const trial = { document: 'policies/a.yaml', startedAt: at(0).toISOString(), sampleRate: 0.25 };

      it('loses no count when two instances count at once', async () => {
        const sampled = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? f.a : f.b).trialCounter.countCall(trial)));
        expect(sampled.filter(Boolean).length).toBe(10);
        const running = { decision: 'allow', rule: null, code: null };
        await Promise.all([
          f.a.trialCounter.countSample(trial, undefined),
          f.b.trialCounter.countSample(trial, { callId: 'c1', running, candidate: { decision: 'deny', rule: 'r', code: 'C' } }),
          f.a.trialCounter.countSample(trial, undefined),
        ]);
        const counts = await f.b.trialCounter.counts(trial);
        expect(counts).toEqual({
          calls: 40,
          sampled: 3,
          agreed: 2,
          differed: 1,
          differences: [{ callId: 'c1', running, candidate: { decision: 'deny', rule: 'r', code: 'C' } }],
        });
        expect(await f.a.trialCounter.counts({ ...trial, startedAt: at(1).toISOString() })).toEqual({
          calls: 0,
          sampled: 0,
          agreed: 0,
          differed: 0,
          differences: [],
        });
        await f.b.trialCounter.reset(trial.document);
        expect((await f.a.trialCounter.counts(trial)).calls).toBe(0);
      });

      it('keeps every difference with its digest, pages through them, and reports the newest 100', async () => {
        await f.a.trialCounter.countCall(trial);
        const verdict = { decision: 'deny', rule: null, code: null };
        for (let i = 0; i < 103; i++) {
          const difference = { callId: `c${i}`, argumentsDigest: `d${i}`, running: verdict, candidate: verdict };
          await (i % 2 === 0 ? f.a : f.b).trialCounter.countSample(trial, difference);
        }
        const { differences, differed } = await f.a.trialCounter.counts(trial);
        expect(differed).toBe(103);
        expect(differences.map((d) => d.callId)).toEqual(Array.from({ length: 100 }, (_, i) => `c${i + 3}`));
        const walked: string[] = [];
        let before: number | undefined;
        for (;;) {
          const page = await (walked.length % 2 === 0 ? f.b : f.a).trialCounter.differencesPage(trial, 40, before);
          walked.push(...page.differences.map((d) => `${d.callId}/${d.argumentsDigest}`));
          if (!page.more) break;
          before = page.differences.at(-1)?.seq;
        }
        expect(walked).toEqual(Array.from({ length: 103 }, (_, i) => `c${102 - i}/d${102 - i}`));
      });

      it('counts no call past the bound of max_samples when two instances count at once', async () => {
        const bounded = { ...trial, startedAt: at(2).toISOString(), sampleRate: 0.5, maxSamples: 3 };
        const sampled = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? f.a : f.b).trialCounter.countCall(bounded)));
        expect(sampled.filter(Boolean).length).toBe(3);
        // The sixth call is the third sampled at 1/2: no call is counted after it.
        expect((await f.a.trialCounter.counts(bounded)).calls).toBe(6);
      });

      it('counts a set’s runs: its validate runs and the decisions naming it', async () => {
        const record = (state: StateStore, at: Date, versions: Record<string, number>) => {
          const row = decisionRow({ at, versions: JSON.stringify(versions) });
          return state.recordDecision(row.agent, undefined, () => ({ row }));
        };
        await f.a.recordRulesetRun('rulesets/refunds', 1, 'pass', at(0));
        await f.b.recordRulesetRun('rulesets/refunds', 2, 'fail', at(10));
        await f.b.recordRulesetRun('rulesets/other', 1, 'pass', at(10));
        await record(f.a, at(5), { 'policies/a.yaml': 1, 'rulesets/refunds': 2 });
        await record(f.a, at(20), { 'rulesets/refunds': 2 });
        await record(f.a, at(20), { 'policies/a.yaml': 1 });
        await record(f.a, at(1), { 'rulesets/refunds': 1 });
        expect(await f.a.rulesetRunsSince('rulesets/refunds', at(5))).toBe(3);
        await f.a.flushDecisions();
        expect(await f.b.rulesetRunsSince('rulesets/refunds', at(0))).toBe(5);
        expect(await f.b.rulesetRunsSince('rulesets/other', at(0))).toBe(1);
        expect(await f.b.rulesetRunsSince('rulesets/none', at(0))).toBe(0);
      });
    });

    describe('document activations', () => {
      it('keeps who made each version run, oldest first, per document, seen from another node', async () => {
        const row = (document: string, sequence: number, name: string, seconds: number) => ({
          document,
          sequence,
          member_id: `id-${name}`,
          member_name: name,
          activated_at: at(seconds).toISOString(),
        });
        await f.a.recordActivation(row('policies/a.policy.json', 2, 'olivia', 1));
        await f.b.recordActivation(row('policies/b.policy.json', 1, 'adam', 2));
        await f.b.recordActivation(row('policies/a.policy.json', 3, 'adam', 3));
        await f.a.recordActivation(row('policies/a.policy.json', 2, 'oscar', 4));
        expect(await f.b.activationsOf('policies/a.policy.json')).toEqual([
          row('policies/a.policy.json', 2, 'olivia', 1),
          row('policies/a.policy.json', 3, 'adam', 3),
          row('policies/a.policy.json', 2, 'oscar', 4),
        ]);
        expect(latestActivations(await f.a.activationsOf('policies/a.policy.json')).get(2)?.member_name).toBe('oscar');
        expect(await f.a.activationsOf('policies/none.policy.json')).toEqual([]);
      });
    });
  });
}
