// tollgate audit verify-receipt FILE (docs/audit.md, "Receipts"), as a real CLI run given only the receipt a real
// server answered (GET /v1/decisions/{call_id}/receipt) and the public keys inside it: it verifies; the decision
// changed, an approval's signature changed, a path entry removed, the checkpoint's signature changed or the
// member's key swapped each exit 1 naming what failed; a file that is not a receipt exits 2.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, workspace } from './cli-harness.ts';
import { postEdit, startSqliteServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let text: string;
beforeAll(async () => {
  s = await startSqliteServer();
  // The policy saved first: the call is decided under a version whose change the record chains with its digest.
  const policy = 'policies/refunds.policy.json';
  const current = await s.call('GET', `/v1/documents/${encodeURIComponent(policy)}`, { key: s.key('owner') });
  const saved = await postEdit(s, policy, s.key('owner'), { content: `${current.json.text.trimEnd()}\n\n`, reason: 'a blank line' });
  expect(saved.status, saved.text).toBeLessThan(300);
  const args = { amount: '500', order: 'V-1' };
  const held = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: args },
  });
  const id = held.json.approval.id as string;
  expect((await s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('approver'), body: {} })).status).toBe(200);
  expect((await s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { arguments: args } })).status).toBe(200);
  // Decisions after it, so the path runs past the held call's entries to the checkpoint.
  for (const amount of ['1', '2'])
    await s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount } } });
  await s.ctx.state.checkpointRecord();
  const r = await s.call('GET', `/v1/decisions/${held.json.call_id}/receipt`, { key: s.key('viewer') });
  expect(r.status, r.text).toBe(200);
  text = r.text;
});
afterAll(async () => {
  await s.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: a receipt edited as JSON
type Json = any;

async function verify(receipt: string | Json, ...flags: string[]) {
  const file = workspace().file('receipt.json', typeof receipt === 'string' ? receipt : JSON.stringify(receipt));
  return runCli('audit', 'verify-receipt', file, ...flags);
}

/** The receipt as answered, edited by `edit`. */
function tampered(edit: (r: Json) => void): Json {
  const r = JSON.parse(text);
  edit(r);
  return r;
}

describe('tollgate audit verify-receipt', () => {
  it('verifies the receipt with only the keys inside it', async () => {
    const receipt = JSON.parse(text);
    // The version that decided is chained with its digest, which the receipt states; the path runs through it.
    expect(receipt.documents).toHaveLength(1);
    expect(receipt.documents[0].body).toMatchObject({ id: 'policies/refunds.policy.json', sequence: 2 });
    expect(receipt.policy).toContainEqual({
      document: 'policies/refunds.policy.json',
      version: 2,
      sha256: receipt.documents[0].body.text_sha256,
    });
    expect(receipt.path.map((e: { kind: string }) => e.kind)).toContain('document.changed');
    const run = await verify(text);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(
      /^audit verify-receipt: call .+: decision entry \d+ of .+, 3 approval entries, 1 chained document version\(s\), .+: verified\n$/,
    );
  });

  it('names what failed when the receipt was tampered with', async () => {
    const otherKey = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const cases: [string, Json, string, RegExp][] = [
      ['the decision changed', tampered((r) => (r.decision.body.decision = 'allow')), 'hash', /the decision entry \d+ of .+ was changed/],
      [
        "the approval's signature changed",
        tampered((r) => (r.approvals[1].body.signature = Buffer.alloc(64, 7).toString('base64'))),
        'approval_signature',
        /is not signed by member/,
      ],
      [
        'a path entry removed',
        tampered((r) => r.path.splice(2, 1)),
        'order',
        /entry \d+ of .+ is missing from the path from the decision entry/,
      ],
      [
        "the checkpoint's signature changed",
        tampered((r) => (r.checkpoints[0].signature = Buffer.alloc(64, 1).toString('base64'))),
        'signature',
        /the checkpoint of .+ at \d+ is not signed by its key/,
      ],
      [
        "the member's key swapped for another",
        tampered((r) => (r.members[0].public_key = otherKey)),
        'approval_signature',
        /is not signed by member/,
      ],
      ['the checkpoint left out', tampered((r) => (r.checkpoints = [])), 'uncovered', /no checkpoint of .+ covers the decision entry/],
      ['a policy version changed', tampered((r) => (r.policy[0].version += 1)), 'policy', /are not the ones the decision states/],
      [
        "a chained version's digest changed",
        tampered((r) => {
          for (const p of r.policy) if (p.version === 2) p.sha256 = '0'.repeat(64);
        }),
        'document',
        /the digest stated for policies\/refunds\.policy\.json@2 is not the one the record chained/,
      ],
    ];
    for (const [what, receipt, reason, message] of cases) {
      const run = await verify(receipt, '--json');
      expect(run.code, what).toBe(1);
      expect(JSON.parse(run.stdout), what).toMatchObject({ verified: false, reason });
      expect(run.stderr, what).toMatch(new RegExp(`receipt\\.json: RECEIPT_BROKEN \\(${reason}\\): `));
      expect(run.stderr, what).toMatch(message);
    }
  });

  it('refuses what is not a receipt, whatever another reader would make of it (exit 2)', async () => {
    const cases: [string, string][] = [
      ['not JSON', '{"receipt":'],
      ['a repeated member', text.replace('"receipt":1,', '"receipt":1,"receipt":1,')],
      ['a member too many', text.replace('"receipt":1,', '"receipt":1,"extra":true,')],
      ['a writer key that is not Ed25519', JSON.stringify(tampered((r) => (r.writers[0].public_key = 'not a key')))],
    ];
    for (const [what, receipt] of cases) {
      const run = await verify(receipt);
      expect(run.code, what).toBe(2);
      expect(run.stderr, what).toMatch(/receipt\.json: RECEIPT_UNREADABLE: /);
    }
  });
});
