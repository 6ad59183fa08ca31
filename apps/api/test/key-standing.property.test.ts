// A key's standing at a moment (state/members/model.ts, authenticationAt), over generated rows and moments: a
// revoked key never acts, whatever its expiry; an expiry acts only while it reads as a time still to come, so a
// value no one can read never keeps a key alive; and the grants a role change leaves (regrant) are the old role's
// taken away and the new role's given, whatever else the key held.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authenticationAt,
  GRANTS,
  type Grant,
  type KeyStanding,
  type Principal,
  ROLE_GRANTS,
  ROLES,
  regrant,
} from '../src/server/state/members/model.ts';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');

const principal: Principal = { kind: 'agent', agent: 'support-bot', grants: [] };

/** Expiries as a database may hold them: our own ISO form, other forms, and text that is no time at all. */
const expiry = fc.oneof(
  fc.constant(null),
  fc.integer({ min: NOW - 10 * 86400_000, max: NOW + 10 * 86400_000 }).map((t) => new Date(t).toISOString()),
  fc.integer({ min: NOW - 86400_000, max: NOW + 86400_000 }).map((t) => new Date(t).toUTCString()),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', 'never', 'NaN', '2026-13-45T99:99:99Z', 'Infinity', '9999-12-31T23:59:59.999Z'),
);
const revoked = fc.oneof(fc.constant(null), fc.constantFrom('2026-01-01T00:00:00.000Z', '', 'x'));

describe('a key standing at a moment', () => {
  it('acts only while unrevoked and, when it expires, before an expiry that reads as a time (property)', () => {
    fc.assert(
      fc.property(expiry, revoked, fc.integer({ min: -86400_000, max: 86400_000 }), (expires_at, revoked_at, shift) => {
        const standing: KeyStanding = { principal, keyId: 'k', expires_at, revoked_at };
        const now = new Date(NOW + shift);
        const auth = authenticationAt(standing, now);
        const end = expires_at === null ? Number.POSITIVE_INFINITY : Date.parse(expires_at);
        if (revoked_at !== null) expect(auth).toMatchObject({ refused: 'KEY_REVOKED' });
        else if (expires_at !== null && !(Number.isFinite(end) && end > now.getTime()))
          expect(auth).toMatchObject({ refused: 'KEY_EXPIRED' });
        else expect(auth).toEqual({ principal, keyId: 'k' });
      }),
    );
  });

  it("refuses a removed member's key whatever else its row says", () => {
    expect(authenticationAt({ refused: 'MEMBER_REMOVED' }, new Date(NOW))).toMatchObject({ refused: 'MEMBER_REMOVED' });
  });
});

describe("a key's grants when its member's role changes", () => {
  it("take away what the old role gave, give the new role's, and keep what was given besides (property)", () => {
    const grants = fc.subarray([...GRANTS]) as fc.Arbitrary<Grant[]>;
    const role = fc.constantFrom(...ROLES);
    fc.assert(
      fc.property(grants, role, role, (held, from, to) => {
        const after = regrant(held, from, to);
        for (const g of ROLE_GRANTS[to]) expect(after).toContain(g);
        for (const g of after) expect(ROLE_GRANTS[to].includes(g) || (held.includes(g) && !ROLE_GRANTS[from].includes(g))).toBe(true);
        // Changing back and forth never adds a grant the key did not have and neither role gives.
        for (const g of regrant(after, to, from)) expect(held.includes(g) || ROLE_GRANTS[from].includes(g)).toBe(true);
        expect(new Set(after).size).toBe(after.length);
      }),
    );
  });
});
