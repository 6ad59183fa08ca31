import { expect, it } from 'vitest';
import { compilePolicy } from '../policy/compile.ts';
import { decisionDiff } from './decision-diff.ts';
import { decisionMap } from './decision-map.ts';

const c = (d: unknown) => {
  const r = compilePolicy(d);
  if (!r.ok) throw new Error(JSON.stringify(r.errors.slice(0, 3)));
  return r.policy;
};
it('scratch big', () => {
  const rules = [];
  for (let i = 0; i < 1000; i++) {
    const r: Record<string, unknown> = {
      id: `r${i}`,
      actions: [i % 10 === 0 ? `svc${i % 50}.*` : `svc${i % 50}.op${i}`],
      effect: ['allow', 'deny', 'require_approval'][i % 3],
    };
    if (r.effect === 'require_approval') r.approvers = { roles: ['admin'] };
    if (i % 4 === 0) r.amount = { currency: 'USD', lte: String(i) };
    if (i % 7 === 0)
      r.when = [
        { path: `/p${i % 5}`, in: ['a', 'b', i] },
        { path: '/q', gt: String(i % 13) },
      ];
    rules.push(r);
  }
  const a = { schema: 'tollgate/policy@1', default: 'deny', rules };
  const b = structuredClone(a);
  (b.rules[3] as Record<string, unknown>).amount = { currency: 'USD', lte: '5' };
  const pa = c(a),
    pb = c(b);
  let t = performance.now();
  const d = decisionDiff(pa, pb);
  process.stdout.write(
    `diff ${performance.now() - t} ms, subjects ${d.subjects.length}, entries ${d.entries.length}\n${d.entries
      .slice(0, 5)
      .map((e) => e.words)
      .join('\n')}\n`,
  );
  const tools = Array.from({ length: 200 }, (_, i) => ({
    name: `t${i}`,
    action: `svc${i % 50}.op${i * 5}`,
    amount: { pointer: '/amount', currency: 'USD' },
  }));
  t = performance.now();
  const m = decisionMap(pa, tools);
  process.stdout.write(`map ${performance.now() - t} ms ${m.length}\n`);
  t = performance.now();
  const d2 = decisionDiff(pa, pb, tools);
  process.stdout.write(`diff over catalogue ${performance.now() - t} ms ${d2.entries.length}\n`);
  expect(1).toBe(1);
}, 120000);
