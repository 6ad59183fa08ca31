// The state contract for members and keys as the product manages them (members/identity-store.ts), on SQLite and
// PostgreSQL alike: generated changes by generated actors, raced two at a time over two instances (two nodes on
// PostgreSQL), never leave the workspace without an owner, never let a member raise their own role or an admin
// make or unmake an owner, and each change made is recorded once; and a key's standing follows its lifecycle on
// the other instance's next call.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../src/server/state/members/lifecycle.ts';
import type { MemberRow, Role } from '../src/server/state/members/model.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { BACKENDS, nextTurn, type StateFixture, titleOf } from './state-contract-backends.ts';

const ROLES: Role[] = ['owner', 'admin', 'approver', 'developer', 'viewer'];
const RANK: Record<Role, number> = { owner: 4, admin: 3, developer: 2, approver: 2, viewer: 1 };

type Op =
  | { kind: 'add'; by: number; role: Role }
  | { kind: 'role'; by: number; target: number; role: Role }
  | { kind: 'remove'; by: number; target: number };

const by = fc.integer({ min: -1, max: 5 }); // -1: the operator
const target = fc.integer({ min: 0, max: 5 });
const role = fc.constantFrom(...ROLES);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), by, role }),
  fc.record({ kind: fc.constant('role' as const), by, target, role }),
  fc.record({ kind: fc.constant('remove' as const), by, target }),
);

async function owners(state: StateStore): Promise<number> {
  return (await state.members()).filter((m) => m.role === 'owner').length;
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(titleOf(backend), () => {
    let f: StateFixture;
    beforeEach(async () => {
      f = await backend.open();
    });
    afterEach(async () => {
      await f?.close();
    });

    it('keeps an owner and the role rules under generated changes, some raced over two instances (property)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(fc.tuple(op), fc.tuple(op, op)), { minLength: 1, maxLength: 6 }), async (steps) => {
          // A workspace of its own each run, so "the last owner" is this run's.
          const w = await backend.open();
          try {
            const people: MemberRow[] = [await w.a.createMember('o', 'owner')];
            let writes = 0;
            let roleChanges = 0;
            for (const step of steps) {
              const raced = step.length > 1;
              const outcomes = await Promise.all(
                step.map(async (o, i) => {
                  const state = i === 0 ? w.a : w.b;
                  const actorRow = o.by < 0 ? undefined : people[o.by % people.length];
                  const fresh = actorRow && (await state.findMember(actorRow.id));
                  // A removed actor has no key that works: its change never reaches the store.
                  if (actorRow && (!fresh || fresh.removed_at !== null)) return undefined;
                  const actor: Actor = fresh ? { kind: 'member', member: fresh } : { kind: 'operator' };
                  const targetRow = 'target' in o ? people[o.target % people.length] : undefined;
                  const before = targetRow && (await state.findMember(targetRow.id));
                  const outcome =
                    o.kind === 'add'
                      ? await state.identity.addMember(`m${people.length}-${i}-${writes}`, o.role, actor)
                      : o.kind === 'role'
                        ? await state.identity.setMemberRole((targetRow as MemberRow).id, o.role, actor)
                        : await state.identity.removeMember((targetRow as MemberRow).id, actor);
                  return { o, actor, before, outcome };
                }),
              );
              for (const r of outcomes) {
                if (!r || !('ok' in r.outcome)) continue;
                const { o, actor, before } = r;
                const after = r.outcome.ok;
                if (o.kind === 'add') people.push(after);
                if (o.kind === 'role') roleChanges++;
                else writes++;
                // The rules, as a reviewer states them, of every change made alone (a raced one's "before" may be stale).
                if (raced || actor.kind !== 'member' || (o.kind === 'role' && before?.role === after.role)) continue;
                if (o.kind === 'role' && before?.id === actor.member.id) expect(RANK[after.role]).toBeLessThan(RANK[before.role]);
                else expect(['owner', 'admin']).toContain(actor.member.role);
                if (actor.member.role !== 'owner') {
                  expect(o.kind !== 'remove' && after.role === 'owner').toBe(false);
                  expect(before?.role).not.toBe('owner');
                }
              }
              await nextTurn();
              expect(await owners(w.a)).toBeGreaterThanOrEqual(1);
              expect(await owners(w.b)).toBeGreaterThanOrEqual(1);
            }
            // Each add and removal recorded once, each role change at most once (none when the role was the same).
            const record = (await w.b.identity.listChanges(500)).rows.slice(0, -1);
            const roles = record.filter((c) => c.action === 'member.role_changed');
            expect(record.length - roles.length).toBe(writes);
            expect(roles.length).toBeLessThanOrEqual(roleChanges);
            for (const c of roles) expect(c.details.from).not.toBe(c.details.to);
          } finally {
            await w.close();
          }
        }),
        { numRuns: backend.name === 'postgres' ? 10 : 25 },
      );
    });

    it("refuses a key on the other instance's next call once revoked, rotated past its overlap or its member removed", async () => {
      const ana = await f.a.createMember('ana', 'developer');
      const issued = await f.a.identity.issueKey(
        { holder: { member: ana.id }, grants: ['catalogue'], name: 'laptop' },
        { kind: 'operator' },
      );
      if (!('ok' in issued)) throw new Error(issued.refusal.message);
      const { key, info } = issued.ok;
      const standing = async () => {
        await nextTurn();
        const auth = await f.b.authenticateKey(key, new Date());
        return auth && ('refused' in auth ? auth.refused : 'ok');
      };
      expect(await standing()).toBe('ok');
      const rotated = await f.a.identity.rotateKey(info.id, 3600, null, { kind: 'operator' });
      if (!('ok' in rotated)) throw new Error(rotated.refusal.message);
      expect(await standing()).toBe('ok');
      const refused = async (k: string) => {
        const auth = await f.b.authenticateKey(k, new Date(Date.now() + 3601_000));
        return auth && ('refused' in auth ? auth.refused : 'ok');
      };
      expect(await refused(key), 'past the overlap').toBe('KEY_EXPIRED');
      expect(await refused(rotated.ok.key)).toBe('ok');
      expect(await f.a.identity.revokeKey(info.id, { kind: 'operator' })).toMatchObject({ ok: { id: info.id } });
      expect(await standing()).toBe('KEY_REVOKED');
      await f.b.identity.removeMember(ana.id, { kind: 'operator' });
      await nextTurn();
      const gone = await f.a.authenticateKey(rotated.ok.key, new Date());
      expect(gone && 'refused' in gone && gone.refused).toBe('MEMBER_REMOVED');
      const keys = await f.b.identity.listKeys({ memberId: ana.id });
      // Listed by creation time, then id: a key and its rotation made in the same millisecond come in their ids' order.
      const byId = (a: [string, boolean], b: [string, boolean]) => a[0].localeCompare(b[0]);
      expect(keys.map((k): [string, boolean] => [k.id, k.revoked_at !== null]).sort(byId)).toEqual(
        (
          [
            [info.id, true],
            [rotated.ok.info.id, true],
          ] as [string, boolean][]
        ).sort(byId),
      );
      expect(JSON.stringify(keys)).not.toContain(key);
    });
  });
}
