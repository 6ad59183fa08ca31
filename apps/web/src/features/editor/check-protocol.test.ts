// The check handler the worker runs: it keeps the catalogue between requests and answers each by number.
import { describe, expect, it } from 'vitest';
import { createCheckHandler } from './check-protocol.ts';

const ID = 'sheets/a.rules.yaml';
const SHEET = 'rules:\n  - action: export_customers\n    never: true\n';
const CATALOGUE = {
  tools: [
    { name: 'export_customers', kind: 'write' as const },
    { name: 'send_payout', kind: 'write' as const },
  ],
};

describe('createCheckHandler', () => {
  it('lints against the catalogue it was sent, for later requests too, until a new one replaces it', () => {
    const answer = createCheckHandler();
    const first = answer({ seq: 1, id: ID, text: SHEET, catalogue: CATALOGUE });
    expect(first).toMatchObject({ seq: 1, check: { kind: 'sheet' } });
    const codes = (reply: ReturnType<typeof answer>) => ('check' in reply ? reply.check.problems.map((p) => p.code) : reply.failure);
    expect(codes(first)).toEqual(['write_ungoverned']);
    expect(codes(answer({ seq: 2, id: ID, text: `${SHEET}  - action: mystery\n    never: true\n` }))).toEqual([
      'write_ungoverned',
      'rule_action_unknown',
    ]);
    expect(codes(answer({ seq: 3, id: ID, text: SHEET, catalogue: null }))).toEqual([]);
  });

  it('answers a refused sheet with its problem on its line and no compiled panes', () => {
    const reply = createCheckHandler()({ seq: 7, id: ID, text: `${SHEET}    colour: blue\n` });
    expect(reply).toMatchObject({
      seq: 7,
      check: { outputs: null, problems: [{ code: 'rule_sheet_unsupported', at: { line: 4 } }] },
    });
  });

  it('answers with plain data a worker can post (structured clone keeps it whole)', () => {
    const reply = createCheckHandler()({
      seq: 1,
      id: 'policies/a.policy.json',
      text: '{"schema": "tollgate/policy@1", "default": "deny", "rules": []}',
    });
    expect(structuredClone(reply)).toEqual(reply);
    expect(reply).toMatchObject({ check: { revision: 1, summary: 'No problems' } });
  });
});
