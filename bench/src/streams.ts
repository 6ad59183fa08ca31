// Fixed, seeded call streams and generated policies shared by the benchmarks and the differential test.

import { type CompiledTool, compileTool, type PolicyDocument, type ToolBinding } from '@tollgate/engine/policy';
import refunds from '../../examples/refunds.policy.json' with { type: 'json' };

/** mulberry32: a small seeded generator, so every run sees the same stream. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Call {
  tool: ToolBinding;
  args: Record<string, unknown>;
}

/** The reference refunds example (docs/policy.md), as examples/ keeps it. */
export const REFUNDS_POLICY = refunds as PolicyDocument;

export const REFUND_TOOLS: ToolBinding[] = [
  { name: 'read_order', action: 'orders.read' },
  { name: 'search_orders', action: 'orders.search' },
  { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'send_payout', action: 'payouts.send', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'export_customers', action: 'customers.export' },
  { name: 'adjust_inventory', action: 'inventory.adjust' },
];

// Malformed amounts (policy@1 refuses them: INVALID_AMOUNT), and readable ones at the edges: beyond
// Cedar's decimal range, more fractional digits than Cedar's four, on a threshold written two ways.
const UNUSUAL = [
  '12345678901234567890.5',
  '99999999999.5',
  '100.00001',
  '1000.000000000000000001',
  '99.99995',
  '100.0000',
  '1e3',
  '-5',
  '012',
  'abc',
  '',
  '1.',
  '.5',
  '12.3456789012345678901',
  12.5,
  null,
  true,
  { v: 1 },
];

/** A mixed stream: every action, amounts 0-5000 as strings and integers, some missing, some malformed, some unknown actions. */
export function refundsStream(count: number, seed = 42): Call[] {
  const random = seeded(seed);
  const calls: Call[] = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    const tool = r < 0.6 ? (REFUND_TOOLS[2] as ToolBinding) : (REFUND_TOOLS[Math.floor(random() * REFUND_TOOLS.length)] as ToolBinding);
    const args: Record<string, unknown> = { order_id: `o-${i}` };
    const a = random();
    if (a < 0.45) args.amount = String(Math.floor(random() * 5001));
    else if (a < 0.7) args.amount = Math.floor(random() * 5001);
    else if (a < 0.85) args.amount = `${Math.floor(random() * 5000)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
    else if (a < 0.95) {
      /* no amount */
    } else args.amount = UNUSUAL[Math.floor(random() * UNUSUAL.length)];
    calls.push({ tool, args });
  }
  return calls;
}

/** A generated policy of `ruleCount` rules over `services` services, with argument conditions. */
export function generatedPolicy(ruleCount = 300, seed = 7): { policy: PolicyDocument; tools: ToolBinding[] } {
  const random = seeded(seed);
  const services = 30;
  const rules: PolicyDocument['rules'] = [];
  for (let i = 0; i < ruleCount; i++) {
    const service = Math.floor(random() * services);
    const op = Math.floor(random() * 5);
    const kind = random();
    const actions = kind < 0.1 ? [`svc${service}.*`] : [`svc${service}.op${op}`];
    const effect = (['allow', 'allow', 'require_approval', 'deny'] as const)[Math.floor(random() * 4)] as
      | 'allow'
      | 'require_approval'
      | 'deny';
    const c = random();
    const when =
      c < 0.25
        ? [{ path: '/env', in: ['dev', 'staging', `env${i % 7}`] }]
        : c < 0.5
          ? [{ path: '/lines/*/qty', for: 'all' as const, gt: '0', lte: String(100 + (i % 400)) }]
          : c < 0.75
            ? [
                { path: '/customer/tier', eq: `tier${i % 4}` },
                { path: '/region', starts_with: ['eu-', `r${i % 5}-`] },
              ]
            : [{ path: '/count', gte: String(i % 50) }];
    const rule: PolicyDocument['rules'][number] = { id: `rule-${i}`, actions, when, effect };
    if (effect === 'require_approval') rule.approvers = { roles: ['owner', 'admin'] };
    rules.push(rule);
  }
  const tools: ToolBinding[] = [];
  for (let s = 0; s < services; s++) for (let op = 0; op < 5; op++) tools.push({ name: `svc${s}_op${op}`, action: `svc${s}.op${op}` });
  return { policy: { schema: 'tollgate/policy@1', default: 'deny', rules }, tools };
}

/** Calls for the generated policy: arguments that satisfy, miss or break its conditions. */
export function generatedStream(tools: ToolBinding[], count: number, seed = 11): Call[] {
  const random = seeded(seed);
  const calls: Call[] = [];
  for (let i = 0; i < count; i++) {
    const tool = tools[Math.floor(random() * tools.length)] as ToolBinding;
    const args: Record<string, unknown> = {};
    if (random() < 0.8) args.env = ['dev', 'staging', 'prod', 'env3', 5][Math.floor(random() * 5)];
    if (random() < 0.8) {
      const n = Math.floor(random() * 4);
      args.lines = Array.from({ length: n }, () => ({ qty: random() < 0.9 ? String(Math.floor(random() * 600)) : 'x' }));
    }
    if (random() < 0.8) args.customer = { tier: `tier${Math.floor(random() * 5)}` };
    if (random() < 0.8) args.region = ['eu-west', 'us-east', 'r1-north', 'r3-south'][Math.floor(random() * 4)];
    if (random() < 0.8) args.count = random() < 0.5 ? Math.floor(random() * 60) : String(Math.floor(random() * 60));
    calls.push({ tool, args });
  }
  return calls;
}

/** Each call's tool compiled once per distinct tool, as a host would keep them. */
export function compileCallTools(calls: Call[]): CompiledTool[] {
  const cache = new Map<string, CompiledTool>();
  return calls.map((c) => {
    const known = cache.get(c.tool.name);
    if (known) return known;
    const compiled = compileTool(c.tool);
    cache.set(c.tool.name, compiled);
    return compiled;
  });
}
