// Shadow checks of rule files: a candidate sheet's verdict beside the running one, reported only where they differ.
import { describe, expect, it } from 'vitest';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { compileSheet } from '../sheet/compile.ts';
import { shadowDifference, shadowSide } from './shadow-check.ts';

const CATALOGUE = `tools:
  - { name: read_order, action: orders.read, kind: read }
  - { name: send_payout, action: payouts.send, kind: write }
`;
const RUNNING = `rules:
  - action: send_payout
    requires_confirmation: true
`;
const CANDIDATE = `rules:
  - action: read_order
    never: true
  - action: send_payout
    requires_confirmation: true
`;

function side(text: string) {
  const catalogue = readCatalogue(CATALOGUE, 'yaml');
  const sheet = compileSheet(text);
  if (!catalogue.ok || !sheet.ok) throw new Error('the fixtures load');
  return shadowSide(catalogue.catalogue, sheet.rulebook, sheet.overlay);
}

describe('shadowDifference', () => {
  const running = side(RUNNING);
  const candidate = side(CANDIDATE);

  it('reports the rule whose verdict the candidate changes', () => {
    expect(shadowDifference('sheets/s.rules.yaml', running, candidate, { tool: 'read_order', arguments: {} })).toEqual({
      document: 'sheets/s.rules.yaml',
      rule: 'read_order',
      running: 'allow',
      candidate: 'refuse',
    });
  });

  it('reports nothing where the verdicts agree', () => {
    expect(shadowDifference('sheets/s.rules.yaml', running, candidate, { tool: 'send_payout', arguments: {} })).toBeUndefined();
    expect(
      shadowDifference('sheets/s.rules.yaml', running, candidate, { tool: 'send_payout', arguments: {}, confirmed: true }),
    ).toBeUndefined();
    expect(shadowDifference('sheets/s.rules.yaml', running, running, { tool: 'read_order', arguments: {} })).toBeUndefined();
  });
});
