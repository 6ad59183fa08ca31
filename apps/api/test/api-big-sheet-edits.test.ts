// A big rule sheet saved through the edit route, and an agent loading it, compile on the compile thread:
// /v1/health answers while they run (it would wait for them on the event loop), and the outcome and the
// decision are the ones the event loop would give.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEdit, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

/** A sheet of `rules` rules (3,000 take seconds to compile here, linearly). */
function bigSheet(rules: number): string {
  let text = '# a big sheet\nrules:\n';
  for (let i = 0; i < rules; i++) {
    text += `  - action: tool_${i}\n    requires: [approved_${i % 7}, checked]\n    when: { amount_over: ${100 + i}, region_is: "eu" }\n`;
  }
  return text;
}

/** Runs `slow`, asks for /v1/health 50 ms later, and says which answered first. */
async function healthFirst<T>(slow: () => Promise<T>): Promise<{ order: string[]; result: T }> {
  const order: string[] = [];
  const pending = slow().then((result) => {
    order.push('slow');
    return result;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const health = await fetch(`${s.url}/v1/health`);
  order.push('health');
  expect(health.status).toBe(200);
  return { order, result: await pending };
}

describe('a big sheet', () => {
  it('is validated off the event loop when saved, and loaded off it when an agent runs it', async () => {
    const saved = await healthFirst(() =>
      postEdit(s, 'sheets/support.rules.yaml', s.key('owner'), { content: bigSheet(3000), reason: 'a big sheet' }),
    );
    expect(saved.order).toEqual(['health', 'slow']);
    expect(saved.result.status).toBe(201);
    expect(saved.result.json.status).toBe('applied');

    const decided = await healthFirst(() =>
      s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount: '50' } } }),
    );
    expect(decided.order).toEqual(['health', 'slow']);
    expect(decided.result.json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });

  it('that does not compile is refused through the thread with its line, as inline', async () => {
    const text = `${bigSheet(3000)}  - action: tool_1\n    never: true\n`;
    const r = await postEdit(s, 'sheets/support.rules.yaml', s.key('owner'), { content: text, reason: 'a second rule' });
    expect(r.status).toBe(422);
    expect(r.json.status).toBe('refused');
    expect(r.json.reasons.map((d: { line?: number }) => d.line)).toContain(9003);
  });
});
