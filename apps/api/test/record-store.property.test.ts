// The record kept by the state stores (docs/audit.md; SQLite, and PostgreSQL in a few runs), over generated
// histories: decisions and held calls of two writers (fixture `a`, and `b` as a second process), approvals decided
// and claimed, members added and given roles, documents' changes chained, and checkpoints signed between steps. The
// untouched export (record/export.ts) verifies, in process as `tollgate audit verify` checks it (verifyRecord, then
// firstBadApproval) and by a real run of the command; after one edit of the database as someone with it would make,
// the export breaks at the first place docs/audit.md says, named exactly (reason, writer, seq, and the entry's index
// or the checkpoint's place), or verifies where the record cannot tell: a writer's last entry removed that no
// checkpoint names (its own, or among the heads another writer's saw), a stored body of a kind an export restates
// from its row (record/entries.ts), and a pending approval's status, signer or signature (no entry states them until
// it is decided).
import { createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { firstBadApproval, memberKeysOf } from '../src/server/record/approval-signatures.ts';
import { type ChainEntry, type Checkpoint, type RecordBreak, type RecordVerdict, verifyRecord } from '../src/server/record/chain.ts';
import { DOCUMENT_CHANGED, documentRef, textDigest } from '../src/server/record/documents.ts';
import { ENTRY_SOURCES } from '../src/server/record/entries.ts';
import { exportRecord, type RecordLine } from '../src/server/record/export.ts';
import { OPERATOR } from '../src/server/state/members/identity-store.ts';
import type { MemberRow, Role } from '../src/server/state/members/model.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { runCli, workspace } from './cli-harness.ts';
import { decideAs } from './custodial-test-keys.ts';
import { approvalRow, BACKENDS, decisionRow, type StateFixture, titleOf } from './state-contract-backends.ts';

// A fresh PostgreSQL schema a run is slow: a few runs there, the coverage of every edit's outcomes on SQLite.
const RUNS = { sqlite: { numRuns: 120 }, postgres: { numRuns: 8 } };
/** Every how many runs the export is also checked by a real `tollgate audit verify --json` run. */
const CLI_EVERY = 4;

// Within the hour a checkpoint's `seen` looks back over (record/writer.ts, SEEN_WITHIN_MS), so the heads a writer's
// checkpoint saw of the other are there to bind its chain.
const T0 = Math.floor((Date.now() - 30 * 60_000) / 1000) * 1000;
const ROLES: Role[] = ['owner', 'admin', 'approver', 'developer', 'viewer'];

type On = 'a' | 'b';
type Step =
  | { step: 'decide'; on: On; decision: 'allow' | 'deny'; amount: string | null; tool: string; agent: string }
  | { step: 'hold'; on: On; amount: string | null; agent: string }
  | { step: 'approve'; on: On; pick: number; member: number; verdict: 'approved' | 'denied' }
  | { step: 'claim'; on: On; pick: number }
  | { step: 'add member'; on: On; role: Role }
  | { step: 'set role'; on: On; member: number; role: Role }
  | { step: 'document'; on: On; sequence: number; text: string }
  | { step: 'checkpoint'; on: On };

const on = fc.constantFrom<On>('a', 'a', 'a', 'b');
const amount = fc.option(fc.constantFrom('5', '120.50', '0.99', '1000'), { nil: null });
const agent = fc.constantFrom('agent-a', 'agent-b', 'support-bot');
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      step: fc.constant('decide' as const),
      on,
      decision: fc.constantFrom('allow' as const, 'deny' as const),
      amount,
      tool: fc.constantFrom('refund', 'lookup'),
      agent,
    }),
  },
  { weight: 2, arbitrary: fc.record({ step: fc.constant('hold' as const), on, amount, agent }) },
  {
    weight: 2,
    arbitrary: fc.record({
      step: fc.constant('approve' as const),
      on,
      pick: fc.nat(),
      member: fc.nat(),
      verdict: fc.constantFrom('approved' as const, 'denied' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ step: fc.constant('claim' as const), on, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ step: fc.constant('add member' as const), on, role: fc.constantFrom(...ROLES) }) },
  { weight: 1, arbitrary: fc.record({ step: fc.constant('set role' as const), on, member: fc.nat(), role: fc.constantFrom(...ROLES) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      step: fc.constant('document' as const),
      on,
      sequence: fc.integer({ min: 1, max: 9 }),
      text: fc.string({ maxLength: 12 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ step: fc.constant('checkpoint' as const), on }) },
);

type Edit =
  | { edit: 'decision column'; pick: number; column: 'decision' | 'rule' | 'agent' | 'amount' | 'arguments_digest' | 'created_at' }
  | { edit: 'decision deleted'; pick: number }
  | { edit: 'approval column'; pick: number; column: 'signature' | 'status' | 'decided_by'; n: number; decided: boolean }
  | { edit: 'entry deleted'; pick: number; which: 'any' | 'last' | 'last covered' }
  | { edit: 'entries swapped'; pick: number; other: number }
  | { edit: 'entry body'; pick: number; stored: boolean }
  | { edit: 'identity details'; pick: number }
  | { edit: 'checkpoint column'; pick: number; column: 'head' | 'signature'; n: number };

// The edits with more than one outcome drawn more often, each way in turn about as often as the others' one.
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    edit: fc.constant('decision column' as const),
    pick: fc.nat(),
    column: fc.constantFrom(
      'decision' as const,
      'rule' as const,
      'agent' as const,
      'amount' as const,
      'arguments_digest' as const,
      'created_at' as const,
    ),
  }),
  fc.record({ edit: fc.constant('decision deleted' as const), pick: fc.nat() }),
  {
    weight: 2,
    arbitrary: fc.record({
      edit: fc.constant('approval column' as const),
      pick: fc.nat(),
      column: fc.constantFrom('signature' as const, 'status' as const, 'decided_by' as const),
      n: fc.nat(),
      decided: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      edit: fc.constant('entry deleted' as const),
      pick: fc.nat(),
      which: fc.constantFrom('any' as const, 'last' as const, 'last covered' as const),
    }),
  },
  fc.record({ edit: fc.constant('entries swapped' as const), pick: fc.nat(), other: fc.nat() }),
  { weight: 2, arbitrary: fc.record({ edit: fc.constant('entry body' as const), pick: fc.nat(), stored: fc.boolean() }) },
  fc.record({ edit: fc.constant('identity details' as const), pick: fc.nat() }),
  fc.record({
    edit: fc.constant('checkpoint column' as const),
    pick: fc.nat(),
    column: fc.constantFrom('head' as const, 'signature' as const),
    n: fc.nat(),
  }),
);

/**
 * Random steps, with at least one held call, one approval, one document's change and one checkpoint among them (an
 * approval before any held call decides nothing), so every edit has something to edit in most histories.
 */
const steps: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.array(step, { minLength: 0, maxLength: 16 }),
    fc.record({ step: fc.constant('hold' as const), on, amount, agent }),
    fc.record({
      step: fc.constant('approve' as const),
      on,
      pick: fc.nat(),
      member: fc.nat(),
      verdict: fc.constantFrom('approved' as const, 'denied' as const),
    }),
    fc.record({ step: fc.constant('document' as const), on, sequence: fc.integer({ min: 1, max: 9 }), text: fc.string({ maxLength: 12 }) }),
    fc.record({ step: fc.constant('checkpoint' as const), on }),
  )
  .chain(([random, ...required]) => {
    const all: Step[] = [...random, ...required];
    return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
  });

/** What the history chained, as the model counts it: entries by kind, and checkpoints signed. */
interface Made {
  kinds: Record<string, number>;
  checkpoints: number;
}

async function makeHistory(f: StateFixture, members: number, steps: readonly Step[]): Promise<Made> {
  const made: Made = { kinds: {}, checkpoints: 0 };
  const chained = (kind: string) => {
    made.kinds[kind] = (made.kinds[kind] ?? 0) + 1;
  };
  let tick = 0;
  const next = () => new Date(T0 + ++tick * 1000);
  const team: MemberRow[] = [];
  for (let m = 0; m < members; m++) {
    team.push(await f.a.createMember(`member-${m}`, m === 0 ? 'owner' : 'approver', next()));
    chained('identity.changed');
  }
  const approvals: { id: string; digest: string; status: 'pending' | 'approved' | 'denied'; claimed: boolean }[] = [];
  for (const s of steps) {
    const state: StateStore = s.on === 'a' ? f.a : f.b;
    const at = next();
    if (s.step === 'decide') {
      const row = decisionRow({
        at,
        decision: s.decision,
        amount: s.amount,
        currency: s.amount ? 'USD' : null,
        tool: s.tool,
        agent: s.agent,
      });
      if (s.decision === 'deny') Object.assign(row, { rule: 'no-refunds', code: 'POLICY_DENY' });
      await state.recordDecision(row.agent, undefined, () => ({ row }));
      chained('decision');
    } else if (s.step === 'hold') {
      const row = decisionRow({ at, decision: 'require_approval', rule: 'big-refunds', amount: s.amount, agent: s.agent });
      const approval = approvalRow(
        row,
        team.map((m) => m.id),
      );
      await state.recordDecision(row.agent, undefined, () => ({ row, approval }));
      approvals.push({ id: approval.id, digest: row.arguments_digest, status: 'pending', claimed: false });
      chained('decision');
      chained('approval.requested');
    } else if (s.step === 'approve') {
      const pending = approvals.filter((a) => a.status === 'pending');
      const target = pending[s.pick % Math.max(1, pending.length)];
      if (!target) continue;
      const member = team[s.member % team.length] as MemberRow;
      expect((await decideAs(state, target.id, member, s.verdict, 'why', at)).ok).toBe(true);
      target.status = s.verdict;
      chained('approval.decided');
    } else if (s.step === 'claim') {
      const approved = approvals.filter((a) => a.status === 'approved' && !a.claimed);
      const target = approved[s.pick % Math.max(1, approved.length)];
      if (!target) continue;
      expect((await state.claimApproval(target.id, target.digest, at)).ok).toBe(true);
      target.claimed = true;
      chained('approval.claimed');
    } else if (s.step === 'add member') {
      const added = await state.identity.addMember(`member-${team.length}`, s.role, OPERATOR, at);
      if (!('ok' in added)) throw new Error(`not added: ${added.refusal.code}`);
      team.push(added.ok);
      chained('identity.changed');
    } else if (s.step === 'set role') {
      const k = s.member % team.length;
      const member = team[k] as MemberRow;
      // Refused (the last owner demoted) or the role it has already: nothing written, nothing chained.
      const set = await state.identity.setMemberRole(member.id, s.role, OPERATOR, at);
      if ('ok' in set && member.role !== s.role) chained('identity.changed');
      if ('ok' in set) team[k] = set.ok;
    } else if (s.step === 'document') {
      const id = 'policies/refunds.policy.json';
      const body = { id, sequence: s.sequence, text_sha256: textDigest(s.text), running: true, author: 'person:member-0' };
      await state.chain(DOCUMENT_CHANGED, at.toISOString(), documentRef(id, s.sequence), body);
      chained(DOCUMENT_CHANGED);
    } else if (await state.checkpointRecord(at)) made.checkpoints++;
  }
  await f.a.flushDecisions();
  await f.b.flushDecisions();
  return made;
}

async function exported(state: StateStore): Promise<RecordLine[]> {
  const lines: RecordLine[] = [];
  await exportRecord(state.recordReader, (line) => {
    lines.push(JSON.parse(JSON.stringify(line)) as RecordLine);
  });
  return lines;
}

type EntryLine = Extract<RecordLine, { type: 'entry' }>;
const entriesOf = (lines: readonly RecordLine[]) => lines.filter((l): l is EntryLine => l.type === 'entry');
const checkpointsOf = (lines: readonly RecordLine[]) =>
  lines.filter((l): l is Extract<RecordLine, { type: 'checkpoint' }> => l.type === 'checkpoint');

/** The verdict as `tollgate audit verify` reaches it (cli/commands/audit-verify.ts): the chain, then the approvals. */
function verdictOf(lines: readonly RecordLine[]): RecordVerdict {
  const entries: ChainEntry[] = entriesOf(lines).map(({ type: _t, ...e }) => e);
  const checkpoints: Checkpoint[] = checkpointsOf(lines).map(({ type: _t, ...c }) => c);
  const keys = new Map(lines.flatMap((l) => (l.type === 'writer' ? [[l.writer, createPublicKey(l.public_key)] as const] : [])));
  const members = lines.flatMap((l) => (l.type === 'member' ? [{ member: l.member, public_key: l.public_key }] : []));
  const chain = verifyRecord(entries, checkpoints, keys);
  const bad = chain.ok ? firstBadApproval(entries, memberKeysOf(members)) : undefined;
  return bad ? { ok: false, first: bad } : chain;
}

/** The same export checked by a real `tollgate audit verify --json` run: it must say what the verdict says. */
async function sameByCli(lines: readonly RecordLine[], verdict: RecordVerdict): Promise<void> {
  const file = workspace().file('record.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const run = await runCli('audit', 'verify', file, '--json');
  const said = JSON.parse(run.stdout) as Record<string, unknown>;
  if (verdict.ok) {
    expect(run.code).toBe(0);
    expect(said).toMatchObject({ verified: true, entries: verdict.entries, checkpoints: verdict.checkpoints });
  } else {
    expect(run.code).toBe(1);
    expect(said).toMatchObject({ verified: false, ...verdict.first });
  }
}

/** Whether the checkpoint names the entry: its own position, or a head it saw of the entry's writer. */
function names(c: Checkpoint, x: EntryLine): boolean {
  return (c.writer === x.writer && c.seq === x.seq) || Object.entries(c.seen).some(([w, s]) => w === x.writer && s.seq === x.seq);
}

type Expected = 'verifies' | Omit<RecordBreak, 'message'>;

/** A base64 signature with one bit of one of its bytes flipped (not its text's padding bits, which decode the same). */
function flip(signature: string, n: number): string {
  const bytes = Buffer.from(signature, 'base64');
  const at = n % bytes.length;
  bytes[at] = (bytes[at] as number) ^ (1 << (n % 8));
  return bytes.toString('base64');
}

/**
 * Makes the edit on the database and answers where docs/audit.md says the export now breaks, worked out from the
 * untouched export's lines: undefined when the history has nothing the edit applies to.
 */
async function applyEdit(f: StateFixture, e: Edit, lines: readonly RecordLine[]): Promise<Expected | undefined> {
  const entries = entriesOf(lines);
  const checkpoints = checkpointsOf(lines);
  const at = (x: EntryLine): Expected => ({ reason: 'hash', writer: x.writer, seq: x.seq, index: entries.indexOf(x) });
  const pickOf = <T>(xs: readonly T[], n: number): T | undefined => xs[n % Math.max(1, xs.length)];
  const lastOf = (writer: string) => Math.max(...entries.filter((x) => x.writer === writer).map((x) => x.seq));
  switch (e.edit) {
    case 'decision column': {
      const target = pickOf(
        entries.filter((x) => x.kind === 'decision'),
        e.pick,
      );
      if (!target) return undefined;
      const b = target.body;
      const value = {
        decision: b.decision === 'deny' ? 'allow' : 'deny',
        rule: 'forged-rule',
        agent: 'agent-forged',
        amount: b.amount === '0.01' ? '0.02' : '0.01',
        arguments_digest: 'f'.repeat(64),
        created_at: new Date(Date.parse(b.created_at as string) + 1).toISOString(),
      }[e.column];
      await f.exec(`UPDATE decisions SET ${e.column} = ? WHERE call_id = ?`, [value, b.call_id]);
      return at(target);
    }
    case 'decision deleted': {
      // A held call's row is referenced by its approval (a foreign key): only an unheld call's row can go alone.
      const held = new Set(entries.filter((x) => x.kind === 'approval.requested').map((x) => x.body.call_id));
      const target = pickOf(
        entries.filter((x) => x.kind === 'decision' && !held.has(x.body.call_id)),
        e.pick,
      );
      if (!target) return undefined;
      await f.exec('DELETE FROM decisions WHERE call_id = ?', [target.body.call_id]);
      return at(target);
    }
    case 'approval column': {
      const requests = entries.filter((x) => x.kind === 'approval.requested');
      const decidedOf = (id: unknown) => entries.find((x) => x.kind === 'approval.decided' && x.body.id === id);
      const request = pickOf(e.decided ? requests.filter((x) => decidedOf(x.body.id)) : requests, e.pick) ?? pickOf(requests, e.pick);
      if (!request) return undefined;
      const id = request.body.id as string;
      const decided = decidedOf(id);
      const was = decided?.body;
      const value =
        e.column === 'signature'
          ? typeof was?.signature === 'string'
            ? flip(was.signature, e.n)
            : 'AAAA'
          : e.column === 'status'
            ? was?.status === 'approved'
              ? 'denied'
              : 'approved'
            : 'member-forged';
      await f.exec(`UPDATE approvals SET ${e.column} = ? WHERE id = ?`, [value, id]);
      // Only the decided entry states the status, the signer and the signature: a pending request's are stated by none.
      return decided ? at(decided) : 'verifies';
    }
    case 'entry deleted': {
      const lasts = entries.filter((x) => x.seq === lastOf(x.writer));
      const covered = lasts.filter((x) => checkpoints.some((c) => names(c, x)));
      const from = e.which === 'any' ? entries : e.which === 'last covered' && covered.length > 0 ? covered : lasts;
      const target = pickOf(from, e.pick) as EntryLine;
      await f.exec('DELETE FROM record_entries WHERE writer = ? AND seq = ?', [target.writer, target.seq]);
      // Not its writer's last: the next entry, now where it stood, is out of order.
      if (target.seq !== lastOf(target.writer))
        return { reason: 'order', writer: target.writer, seq: target.seq + 1, index: entries.indexOf(target) };
      // Its writer's last: caught only by the first checkpoint naming it, its own or among the heads it saw.
      for (const [place, c] of checkpoints.entries()) {
        if (names(c, target)) return { reason: 'truncated', writer: target.writer, seq: target.seq, index: null, checkpoint: place };
      }
      // A decision whose request was claimed leaves the claim without its signed approval: the claim is named.
      const claim = entries.find((x) => x.kind === 'approval.claimed' && x.body.id === target.body.id);
      if (target.kind === 'approval.decided' && claim) {
        const index = entries.indexOf(claim) - (entries.indexOf(target) < entries.indexOf(claim) ? 1 : 0);
        return { reason: 'approval_signature', writer: claim.writer, seq: claim.seq, index };
      }
      return 'verifies';
    }
    case 'entries swapped': {
      const first = entries[e.pick % entries.length] as EntryLine;
      const later = entries.filter((x) => x.writer === first.writer && x.seq > first.seq);
      const second = pickOf(later, e.other);
      if (!second) return undefined;
      const swap = 'UPDATE record_entries SET seq = ? WHERE writer = ? AND seq = ?';
      await f.exec(swap, [-1, first.writer, first.seq]);
      await f.exec(swap, [first.seq, first.writer, second.seq]);
      await f.exec(swap, [second.seq, first.writer, -1]);
      // The later entry now at the earlier's place names the hash of the entry before itself, not before that place.
      return { reason: 'link', writer: first.writer, seq: first.seq, index: entries.indexOf(first) };
    }
    case 'entry body': {
      const stored = entries.filter((x) => !(x.kind in ENTRY_SOURCES));
      const restated = entries.filter((x) => x.kind in ENTRY_SOURCES);
      const target = pickOf(e.stored && stored.length > 0 ? stored : restated, e.pick) as EntryLine;
      await f.exec('UPDATE record_entries SET body = ? WHERE writer = ? AND seq = ?', ['{"forged":true}', target.writer, target.seq]);
      // An export restates a body from its row (entries.ts) for a kind that has one: the stored text is not read.
      return target.kind in ENTRY_SOURCES ? 'verifies' : at(target);
    }
    case 'identity details': {
      const target = pickOf(
        entries.filter((x) => x.kind === 'identity.changed'),
        e.pick,
      );
      if (!target) return undefined;
      await f.exec('UPDATE identity_changes SET details = ? WHERE seq = ?', ['{"forged":true}', Number(target.body.seq)]);
      return at(target);
    }
    case 'checkpoint column': {
      const place = e.pick % Math.max(1, checkpoints.length);
      const c = checkpoints[place];
      if (!c) return undefined;
      const value = e.column === 'head' ? (c.head === 'f'.repeat(64) ? 'e' : 'f').repeat(64) : flip(c.signature, e.n);
      await f.exec(`UPDATE record_checkpoints SET ${e.column} = ? WHERE writer = ? AND seq = ?`, [value, c.writer, c.seq]);
      return { reason: 'signature', writer: c.writer, seq: c.seq, index: null, checkpoint: place };
    }
  }
}

for (const backend of BACKENDS)
  describe.skipIf(backend.skip !== undefined)(
    `the record on the ${titleOf(backend)}, over generated histories and one edit of its database`,
    () => {
      const seen: Record<string, number> = {};
      afterAll(() => {
        if (backend.name !== 'sqlite') return;
        // Each edit was made, and each way the record answers one was reached (the run counts are in the message).
        const wanted = [
          'decision column:hash',
          'decision deleted:hash',
          'approval column:hash',
          'approval column:verifies',
          'entry deleted:order',
          'entry deleted:truncated',
          'entry deleted:verifies',
          'entries swapped:link',
          'entry body:hash',
          'entry body:verifies',
          'identity details:hash',
          'checkpoint column:signature',
        ];
        expect(
          wanted.filter((w) => !seen[w]),
          JSON.stringify(seen),
        ).toEqual([]);
      });

      it('verifies untouched, and names the first break of an edit where docs/audit.md says, or verifies where it cannot tell', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 1, max: 2 }), steps, edit, async (members, steps, e) => {
            const f = await backend.open();
            try {
              const made = await makeHistory(f, members, steps);
              const before = await exported(f.a);
              // Every step the model counts is chained, once; every checkpoint signed is exported.
              const kinds: Record<string, number> = {};
              for (const x of entriesOf(before)) kinds[x.kind] = (kinds[x.kind] ?? 0) + 1;
              expect(kinds).toEqual(made.kinds);
              expect(checkpointsOf(before)).toHaveLength(made.checkpoints);
              const untouched = verdictOf(before);
              expect(untouched).toEqual({ ok: true, entries: entriesOf(before).length, checkpoints: made.checkpoints });
              const expected = await applyEdit(f, e, before);
              fc.pre(expected !== undefined);
              const after = await exported(f.a);
              const verdict = verdictOf(after);
              if (expected === 'verifies') expect(verdict).toMatchObject({ ok: true });
              else expect(verdict).toEqual({ ok: false, first: { ...expected, message: expect.any(String) } });
              const outcome = expected === 'verifies' ? 'verifies' : expected.reason;
              seen[`${e.edit}:${outcome}`] = (seen[`${e.edit}:${outcome}`] ?? 0) + 1;
              if (run++ % CLI_EVERY === 0) {
                await sameByCli(before, untouched);
                await sameByCli(after, verdict);
              }
            } finally {
              await f.close();
            }
          }),
          RUNS[backend.name],
        );
      }, 60_000);
    },
  );
