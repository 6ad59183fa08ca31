// Generated policies for the review suite: N rules over a catalogue of tools with amounts, each rule
// testing up to two of P concrete argument paths (string paths by eq, in and starts_with; number paths by
// bounds), and an edit of one rule, as a reviewer meets it. Seeded, so every run reviews the same pair.
import type { PolicyDocument, PolicyRule, ToolBinding } from '@tollgate/engine/policy';
import { seeded } from './streams.ts';

export interface ReviewCase {
  running: PolicyDocument;
  candidate: PolicyDocument;
  tools: ToolBinding[];
}

const SERVICES = 4;
const OPS = 3;

/** A policy of `ruleCount` rules with `paths` argument paths, and the same policy with one rule widened. */
export function reviewCase(ruleCount: number, paths: number, seed = 5): ReviewCase {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const names = Array.from({ length: paths }, (_, i) => (i % 2 === 0 ? `/s${i}` : `/n${i}`));
  const rules: PolicyRule[] = [];
  for (let i = 0; i < ruleCount; i++) {
    const service = Math.floor(random() * SERVICES);
    const actions = random() < 0.1 ? [`svc${service}.*`] : [`svc${service}.op${Math.floor(random() * OPS)}`];
    const effect = pick(['allow', 'allow', 'require_approval', 'deny'] as const);
    const rule: PolicyRule = { id: `rule-${i}`, actions, effect };
    const count = names.length === 0 ? 0 : 1 + Math.floor(random() * 3);
    const when: NonNullable<PolicyRule['when']> = [];
    for (let k = 0; k < count; k++) {
      const path = pick(names);
      if (when.some((c) => c.path === path)) continue;
      if (path.startsWith('/s')) {
        const form = random();
        if (form < 0.4) when.push({ path, eq: `v${Math.floor(random() * 6)}` });
        else if (form < 0.75) when.push({ path, in: [`v${Math.floor(random() * 6)}`, `v${6 + Math.floor(random() * 6)}`] });
        else when.push({ path, starts_with: [`p${Math.floor(random() * 4)}-`] });
      } else {
        const form = random();
        const at = String(Math.floor(random() * 20) * 5);
        if (form < 0.5) when.push({ path, gte: at });
        else if (form < 0.8) when.push({ path, lt: at });
        else when.push({ path, gt: at, lte: String(Number(at) + 50) });
      }
    }
    if (when.length > 0) rule.when = when;
    if (random() < 0.3) rule.amount = { currency: 'USD', lte: String(50 * (1 + Math.floor(random() * 20))) };
    if (effect === 'require_approval') rule.approvers = { roles: ['owner', 'admin'] };
    rules.push(rule);
  }
  const running: PolicyDocument = { schema: 'tollgate/policy@1', default: 'deny', rules };
  // The edit: a deny with argument conditions removed, and an allow's amount bound raised, as a widening change is.
  const removed = rules.findIndex((r) => r.effect === 'deny' && r.when !== undefined);
  const raised = rules.findIndex((r) => r.effect === 'allow' && r.amount !== undefined);
  const candidateRules = rules
    .map((r, i) => (i === raised ? { ...r, amount: { currency: 'USD', lte: '2000' } } : r))
    .filter((_, i) => i !== removed);
  const candidate: PolicyDocument = { ...running, rules: candidateRules };
  const tools: ToolBinding[] = [];
  for (let s = 0; s < SERVICES; s++) {
    for (let op = 0; op < OPS; op++) {
      const tool: ToolBinding = { name: `svc${s}_op${op}`, action: `svc${s}.op${op}` };
      if (op % 2 === 0) tool.amount = { pointer: '/amount', currency: 'USD' };
      tools.push(tool);
    }
  }
  return { running, candidate, tools };
}
