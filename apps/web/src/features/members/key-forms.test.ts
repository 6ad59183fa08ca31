// Unit tests of the Members & keys page's pure helpers: what the forms send and how keys and changes read.
import { describe, expect, it } from 'vitest';
import type { NewKey } from './api/types.ts';
import { detailsOf, expiryOf, hintOf, holderOf, MAX_OVERLAP_SECONDS, newKeyBody, OVERLAPS, overlapOf, withoutSecret } from './key-forms.ts';

const FORM = { name: '', holder: 'member' as const, member: 'ana', agent: '', grants: [], expires: '' };

describe('withoutSecret', () => {
  it('splits the key itself off, leaving the key as listed', () => {
    const made = { id: 'k1', name: 'laptop', hint: 'abcd', key: 'tg_secret', status: 'active' } as unknown as NewKey;
    const { key, info } = withoutSecret(made);
    expect(key).toBe('tg_secret');
    expect(info).not.toHaveProperty('key');
    expect(JSON.stringify(info)).not.toContain('tg_secret');
    expect(info).toMatchObject({ id: 'k1', name: 'laptop', hint: 'abcd' });
  });
});

describe('overlapOf', () => {
  it('sends an offered choice as its seconds', () => {
    expect(OVERLAPS.map((o) => overlapOf(o.seconds, 'ignored'))).toEqual([
      { seconds: 0 },
      { seconds: 3600 },
      { seconds: 86400 },
      { seconds: 604800 },
    ]);
  });
  it('reads custom whole seconds from 0 to 30 days', () => {
    expect(overlapOf('custom', ' 90 ')).toEqual({ seconds: 90 });
    expect(overlapOf('custom', '0')).toEqual({ seconds: 0 });
    expect(overlapOf('custom', String(MAX_OVERLAP_SECONDS))).toEqual({ seconds: 2_592_000 });
  });
  it('refuses custom text that is not whole seconds in range', () => {
    for (const text of ['', '1.5', '-1', '1e3', 'soon'])
      expect(overlapOf('custom', text)).toEqual({ problem: 'The overlap is a whole number of seconds.' });
    expect(overlapOf('custom', '2592001')).toEqual({ problem: 'The overlap is at most 2592000 seconds (30 days).' });
  });
});

describe('expiryOf', () => {
  it('is none when left empty', () => {
    expect(expiryOf('  ')).toEqual({ at: null });
  });
  it('reads a datetime-local value as local time and sends the UTC instant', () => {
    expect(expiryOf('2027-03-05T10:30')).toEqual({ at: new Date(2027, 2, 5, 10, 30).toISOString() });
  });
  it('refuses text that is not a date', () => {
    expect(expiryOf('tomorrow')).toEqual({ problem: 'The expiry is not a date and time.' });
  });
});

describe('newKeyBody', () => {
  it("sends only the holder when nothing else is given (the role's grants by default)", () => {
    expect(newKeyBody(FORM)).toEqual({ body: { member: 'ana' } });
  });
  it('sends an agent, a trimmed name, the ticked grants and the expiry', () => {
    const form = {
      ...FORM,
      holder: 'agent' as const,
      agent: ' support-bot ',
      name: ' ci ',
      grants: ['model' as const],
      expires: '2027-03-05T10:30',
    };
    expect(newKeyBody(form)).toEqual({
      body: { agent: 'support-bot', name: 'ci', grants: ['model'], expires_at: new Date(2027, 2, 5, 10, 30).toISOString() },
    });
  });
  it('asks for the holder the form names', () => {
    expect(newKeyBody({ ...FORM, member: '' })).toEqual({ problem: 'Choose the member the key is for.' });
    expect(newKeyBody({ ...FORM, holder: 'agent', member: 'ana' })).toEqual({ problem: 'Name the agent the key is for.' });
  });
  it('passes on a bad expiry', () => {
    expect(newKeyBody({ ...FORM, expires: 'x' })).toEqual({ problem: 'The expiry is not a date and time.' });
  });
});

describe('how keys and changes read', () => {
  it('names the holder, a member by name or an agent', () => {
    expect(holderOf({ member_name: 'ana', member_id: 'm1', agent: null })).toBe('member ana');
    expect(holderOf({ member_name: null, member_id: null, agent: 'support-bot' })).toBe('agent support-bot');
  });
  it('shows a hint after an ellipsis, or a dash for a key made before hints', () => {
    expect(hintOf('abcd')).toBe('…abcd');
    expect(hintOf(null)).toBe('—');
  });
  it("lists a change's details in order", () => {
    expect(detailsOf({ details: { from: 'viewer', to: 'admin', key: null } })).toBe('from: viewer, to: admin, key: —');
    expect(detailsOf({ details: {} })).toBe('');
  });
});
