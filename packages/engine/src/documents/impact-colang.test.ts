// Colang impact: flows removed, refusals turned into guards, guards that allow more; narrowings unflagged.
import { describe, expect, it } from 'vitest';
import { analyzeColangImpact } from './impact-colang.ts';

const RUNNING = `define context big_refund on refund_card
  amount > 200

define flow refund_card
  allow when not $big_refund or ($supervisor_approved and $ticket_open)

define flow delete_customer
  refuse

define flow close_account
  allow when $customer_confirmed
`;

function subjects(after: string, before = RUNNING): string[] {
  const impact = analyzeColangImpact(before, after);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

describe('Colang impact', () => {
  it.each([
    ['a flow removed', RUNNING.replace('define flow delete_customer\n  refuse\n', ''), ['flows/delete_customer removed']],
    [
      'a refusal turned into a guard',
      RUNNING.replace('  refuse\n', '  allow when $admin\n'),
      ['flows/delete_customer refuse -> allow when $admin'],
    ],
    [
      'a required context dropped',
      RUNNING.replace('($supervisor_approved and $ticket_open)', '$supervisor_approved'),
      [
        'flows/refund_card allow when $supervisor_approved and $ticket_open or not amount > 200 -> $supervisor_approved or not amount > 200',
      ],
    ],
    [
      'a threshold raised',
      RUNNING.replace('amount > 200', 'amount > 500'),
      [
        'flows/refund_card allow when $supervisor_approved and $ticket_open or not amount > 200 -> $supervisor_approved and $ticket_open or not amount > 500',
      ],
    ],
    [
      'a guard made an alternative',
      RUNNING.replace('allow when $customer_confirmed', 'allow when $customer_confirmed or $agent_sure'),
      ['flows/close_account allow when $customer_confirmed -> $agent_sure or $customer_confirmed'],
    ],
  ])('flags %s', (_name, after, expected) => {
    expect(subjects(after)).toEqual(expected);
  });

  it.each([
    ['identical', RUNNING],
    ['a threshold lowered', RUNNING.replace('amount > 200', 'amount > 100')],
    ['a context required besides', RUNNING.replace('allow when $customer_confirmed', 'allow when $customer_confirmed and $id_checked')],
    ['a guard turned into a refusal', RUNNING.replace('allow when $customer_confirmed', 'refuse')],
    ['a flow added', `${RUNNING}\ndefine flow export_data\n  refuse\n`],
    [
      'flows reordered, comments added',
      `# reordered\ndefine flow close_account\n  allow when $customer_confirmed\n\n${RUNNING.replace('define flow close_account\n  allow when $customer_confirmed\n', '')}`,
    ],
  ])('does not flag %s', (_name, after) => {
    expect(subjects(after)).toEqual([]);
  });

  it('a first Colang policy, or a text that does not load, widens nothing', () => {
    expect(analyzeColangImpact(undefined, RUNNING)).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(subjects('define flow x\n')).toEqual([]);
  });
});
