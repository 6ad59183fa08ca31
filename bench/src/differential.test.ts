// Differential test: the compiled engine and the plain reference evaluator agree on every generated call.
import { type CompiledPolicy, type CompiledTool, compilePolicy, compileTool } from '@tollgate/engine/policy';
import { describe, expect, it } from 'vitest';
import { type ReferenceDocument, referenceDecide } from './reference-evaluator.ts';
import { type Call, compileCallTools, generatedPolicy, generatedStream, REFUNDS_POLICY, refundsStream } from './streams.ts';

function compiled(doc: unknown): CompiledPolicy {
  const r = compilePolicy(doc);
  if (!r.ok) throw new Error(`invalid: ${JSON.stringify(r.errors)}`);
  return r.policy;
}

function differences(doc: ReferenceDocument, calls: Call[]): string[] {
  const policy = compiled(doc);
  const tools = compileCallTools(calls);
  const diffs: string[] = [];
  for (const [i, call] of calls.entries()) {
    const a = policy.decide(tools[i] as CompiledTool, call.args);
    const b = referenceDecide(doc, call.tool, call.args);
    if (a.decision !== b.decision || a.rule !== b.rule || a.code !== b.code) {
      diffs.push(
        `${call.tool.name} ${JSON.stringify(call.args)}: engine ${a.decision}/${a.rule}/${a.code}, reference ${b.decision}/${b.rule}/${b.code}`,
      );
    }
  }
  return diffs;
}

describe('engine vs reference evaluator', () => {
  it('agrees on 100k calls of the refunds stream', () => {
    const calls = refundsStream(100_000);
    expect(differences(REFUNDS_POLICY as ReferenceDocument, calls).slice(0, 5)).toEqual([]);
    // The stream really reaches every outcome, so agreement means something.
    const policy = compiled(REFUNDS_POLICY);
    const seen = new Set(calls.slice(0, 5000).map((c) => `${policy.decide(compileTool(c.tool), c.args).decision}`));
    expect([...seen].sort()).toEqual(['allow', 'deny', 'require_approval']);
  });

  it('agrees on 100k calls of a generated 300-rule policy with argument conditions', () => {
    const { policy, tools } = generatedPolicy(300);
    const calls = generatedStream(tools, 100_000);
    expect(differences(policy as unknown as ReferenceDocument, calls).slice(0, 5)).toEqual([]);
  });
});
