// Whatever declares a limit, the gate enforces it (docs/catalogue.md, "The tool check"): generated agents, with
// and without a sheet of their own, with rule sets that pin policies only or rulebooks too, inside and outside
// observe windows, and a catalogue whose tools declare after, not_after, at_most and checks. The limits are
// judged here from their plain meaning, not by the tool check, so a gate that skips the check for some shape
// of agent fails.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ObserveWindow } from '../src/documents/settings.ts';
import { referenceDecideCall } from '../src/gate/decide-call.reference.ts';
import { type DecideCallInput, decideCall, type GateRulebook } from '../src/gate/decide-call.ts';
import { compilePolicy } from '../src/policy/compile.ts';
import type { Member } from '../src/policy/types.ts';
import type { Catalogue, CatalogueTool } from '../src/rulebook/catalogue.ts';
import type { SessionCall } from '../src/rulebook/check.ts';
import { type CatalogueOverlay, OVERLAY_FORMAT, type Rulebook } from '../src/rulebook/types.ts';

const TOOLS = ['t0', 't1', 't2', 't3'] as const;
const REGIONS = ['EU', 'US', 'APAC'] as const;
const NOW = new Date('2026-06-01T12:00:00Z');
const members: Member[] = [{ id: '00000000-0000-4000-8000-000000000001', role: 'owner', signing: true }];
const EMPTY: Rulebook = { format: 'tollgate/rulebook@1', flows: [] };

const allowAll = (() => {
  const r = compilePolicy({ schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'all', actions: ['act.*'], effect: 'allow' }] });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { document: 'policies/all.policy.json', sequence: 1, policy: r.policy };
})();

const subsetOf = (names: readonly string[]) => fc.subarray([...names], { maxLength: 2 });

/** One catalogue tool with some declarations of its own. */
const tool = (name: string) =>
  fc
    .record(
      {
        after: subsetOf(TOOLS.filter((t) => t !== name)),
        not_after: subsetOf(TOOLS.filter((t) => t !== name)),
        at_most: fc.integer({ min: 1, max: 3 }),
        regions: fc.subarray([...REGIONS], { minLength: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((d): CatalogueTool => {
      const entry: CatalogueTool = { name, action: `act.${name}`, kind: 'write' };
      if (d.after && d.after.length > 0) entry.after = d.after;
      if (d.not_after && d.not_after.length > 0) entry.not_after = d.not_after;
      if (d.at_most !== undefined) entry.at_most = d.at_most;
      if (d.regions !== undefined) entry.checks = [{ field: 'region', op: 'in', value: d.regions.map((r) => ({ string: r })) }];
      return entry;
    });

const catalogue: fc.Arbitrary<Catalogue> = fc.tuple(...TOOLS.map(tool)).map((tools) => ({ tools }));

/** Where the agent's rulebooks come from: none, its own sheet, a rule set's pins, or both. */
const rulebookShape = fc.constantFrom('none', 'own', 'pinned', 'both', 'pinned-policies-only');

/** A window open at NOW, one that is not, or none; relaxing denials or approvals. */
const past: ObserveWindow = { name: 'past', starts: '2025-01-01T00:00:00Z', ends: '2025-02-01T00:00:00Z', relax: 'denials' };
const windows: fc.Arbitrary<ObserveWindow[]> = fc.oneof(
  fc.constant<ObserveWindow[]>([]),
  fc
    .constantFrom<ObserveWindow['relax']>('denials', 'approvals')
    .map((relax): ObserveWindow[] => [{ name: 'rollout', starts: '2026-05-01T00:00:00Z', ends: '2026-07-01T00:00:00Z', relax }]),
  fc.constant<ObserveWindow[]>([past]),
);

const history: fc.Arbitrary<SessionCall[]> = fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), arguments: fc.constant({}) }), {
  maxLength: 5,
});

const callArguments = fc.oneof(
  fc.constantFrom(...REGIONS).map((region) => ({ region })),
  fc.constant({}), // a region that cannot be read never passes a check
  fc.constant({ region: 7 }),
);

/** The limits the catalogue declares for the call's tool that the call breaks, judged from their plain meaning. */
function brokenLimits(entry: CatalogueTool, args: Record<string, unknown>, past: readonly SessionCall[]): string[] {
  const broken: string[] = [];
  for (const before of entry.after ?? []) if (!past.some((c) => c.tool === before)) broken.push(`after ${before}`);
  for (const before of entry.not_after ?? []) if (past.some((c) => c.tool === before)) broken.push(`not_after ${before}`);
  if (entry.at_most !== undefined && past.filter((c) => c.tool === entry.name).length >= entry.at_most) broken.push('at_most');
  for (const check of entry.checks ?? []) {
    const allowed = (check.value as { string: string }[]).map((v) => v.string);
    if (typeof args.region !== 'string' || !allowed.includes(args.region)) broken.push('checks');
  }
  return broken;
}

function partsOf(shape: string): Pick<DecideCallInput, 'rulebook' | 'overlay' | 'rulebooks' | 'ruleset'> {
  // A sheet that governs nothing of these tools: an empty rulebook and an overlay adding nothing.
  const overlay: CatalogueOverlay = { format: OVERLAY_FORMAT, tools: {} };
  const pinned: GateRulebook[] = [{ document: 'sheets/other.rules.yaml', sequence: 1, rulebook: EMPTY, overlay }];
  const ruleset = { document: 'rulesets/set.ruleset.json', version: 1, status: 'active' as const };
  switch (shape) {
    case 'own':
      return { rulebook: EMPTY, overlay };
    case 'pinned':
      return { rulebooks: pinned, ruleset };
    case 'both':
      return { rulebook: EMPTY, overlay, rulebooks: pinned, ruleset };
    case 'pinned-policies-only':
      return { rulebooks: [], ruleset };
    default:
      return {};
  }
}

describe('a limit the catalogue declares holds for every agent', () => {
  it('refuses every call that breaks one, sheet or not, rule set or not; a denials window only relaxes it', () => {
    fc.assert(
      fc.property(
        catalogue,
        rulebookShape,
        windows,
        history,
        fc.constantFrom(...TOOLS),
        callArguments,
        (cat, shape, ws, past, name, args) => {
          const input: DecideCallInput = {
            catalogue: cat,
            ...partsOf(shape),
            policies: [allowAll],
            delegation: { actions: ['act.*'] },
            observeWindows: ws,
            members,
            now: NOW,
            call: { tool: name, arguments: args, history: past },
          };
          const d = decideCall(input);
          expect(referenceDecideCall(input)).toEqual(d);
          const entry = cat.tools.find((t) => t.name === name) as CatalogueTool;
          const broken = brokenLimits(entry, args, past);
          const denialsWindowOpen = ws.some((w) => w.relax === 'denials' && w.name === 'rollout');
          if (broken.length === 0) {
            expect(d.decision).toBe('allow');
            expect(d.observed).toBeUndefined();
          } else if (denialsWindowOpen) {
            // Recorded as what it would have been: never silently allowed.
            expect(d.decision).toBe('allow');
            expect(d.observed?.would_have_been).toBe('deny');
            expect(['ORDER_AFTER', 'ORDER_NOT_AFTER', 'AT_MOST_EXCEEDED', 'CHECK_FAILED', 'CHECK_UNREADABLE']).toContain(d.code);
          } else {
            expect(d.decision).toBe('deny');
            expect(['ORDER_AFTER', 'ORDER_NOT_AFTER', 'AT_MOST_EXCEEDED', 'CHECK_FAILED', 'CHECK_UNREADABLE']).toContain(d.code);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('decides alike with no sheet and with a sheet that adds nothing', () => {
    fc.assert(
      fc.property(catalogue, history, fc.constantFrom(...TOOLS), callArguments, (cat, past, name, args) => {
        const base = { catalogue: cat, policies: [allowAll], delegation: { actions: ['act.*'] }, members, now: NOW };
        const call = { tool: name, arguments: args, history: past };
        const bare = decideCall({ ...base, call });
        const sheeted = decideCall({ ...base, ...partsOf('own'), call });
        expect({ decision: bare.decision, code: bare.code, rule: bare.rule }).toEqual({
          decision: sheeted.decision,
          code: sheeted.code,
          rule: sheeted.rule,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('asks for the catalogue’s own confirmation without a sheet, and allows the call once confirmed', () => {
    const cat: Catalogue = { tools: [{ name: 'close', action: 'act.close', kind: 'write', confirmation: 'Close the account?' }] };
    const base = { catalogue: cat, policies: [allowAll], delegation: { actions: ['act.*'] }, members, now: NOW };
    expect(decideCall({ ...base, call: { tool: 'close', arguments: {} } })).toMatchObject({
      decision: 'confirm',
      code: 'CONFIRMATION_REQUIRED',
      confirmation: 'Close the account?',
    });
    expect(decideCall({ ...base, call: { tool: 'close', arguments: {}, confirmed: true } }).decision).toBe('allow');
  });
});
