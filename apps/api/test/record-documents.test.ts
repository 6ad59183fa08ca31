// Documents' changes in the record (docs/audit.md): a policy edited over the real API is chained with its text's
// digest; `tollgate audit export` restates the digest from the version's text as the store holds it, so the export of
// an untouched workspace verifies and one whose stored version text was rewritten (its digest too, as someone with the
// folder would) fails `tollgate audit verify` at that entry.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textDigest } from '../src/server/record/documents.ts';
import { runCli } from './cli-harness.ts';
import { postEdit, startSqliteServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-record-docs-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function exportAndVerify(): Promise<{ code: number; verdict: Record<string, unknown>; lines: Record<string, unknown>[] }> {
  const out = join(dataDir, 'record.jsonl');
  const exported = await runCli('audit', 'export', '--data', dataDir, '--out', out, '--force');
  expect(exported.code, exported.stderr).toBe(0);
  const run = await runCli('audit', 'verify', out, '--json');
  const lines = readFileSync(out, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code: run.code, verdict: JSON.parse(run.stdout) as Record<string, unknown>, lines };
}

describe("a document's change in the record", () => {
  it('is chained with its text digest, and a version text rewritten in the store is named', async () => {
    const server = await startSqliteServer({ dataDir });
    let sequence: number;
    try {
      const current = await server.call('GET', `/v1/documents/${encodeURIComponent(POLICY)}`, { key: server.key('owner') });
      const text = `${(current.json.text as string).trimEnd()}\n\n`;
      const saved = await postEdit(server, POLICY, server.key('owner'), { content: text, reason: 'a blank line' });
      expect(saved.status, saved.text).toBeLessThan(300);
      sequence = (saved.json.version as { sequence: number }).sequence;
    } finally {
      await server.stop();
    }

    const untouched = await exportAndVerify();
    expect(untouched.verdict).toMatchObject({ verified: true });
    const entry = untouched.lines.find(
      (l) => l.type === 'entry' && l.kind === 'document.changed' && (l.body as { sequence: number }).sequence === sequence,
    ) as { writer: string; seq: number; body: { id: string; text_sha256: string } };
    expect(entry.body.id).toBe(POLICY);
    // The demo's tools were authorized as it was seeded: chained too.
    expect(untouched.lines.filter((l) => l.type === 'entry' && l.kind === 'tool.authorized').length).toBeGreaterThan(0);

    // Rewrite the version's text, and its digest and size with it, so the store still reads it.
    const file = join(dataDir, 'documents', '.tollgate', 'documents', encodeURIComponent(POLICY), 'versions', `${sequence}.json`);
    const original = readFileSync(file, 'utf8');
    const stored = JSON.parse(original) as { version: Record<string, unknown>; text: string };
    const forged = stored.text.replace('refund', 'refunD');
    expect(forged).not.toBe(stored.text);
    expect(textDigest(stored.text)).toBe(entry.body.text_sha256);
    const version = { ...stored.version, digest: textDigest(forged), bytes: Buffer.byteLength(forged) };
    writeFileSync(file, JSON.stringify({ ...stored, version, text: forged }));
    const tampered = await exportAndVerify();
    expect(tampered.code).toBe(1);
    expect(tampered.verdict).toMatchObject({ verified: false, reason: 'hash', writer: entry.writer, seq: entry.seq });

    // Rewritten without its digest, the store no longer reads the version: that is named too, never taken as pruned.
    writeFileSync(file, JSON.stringify({ ...stored, text: forged }));
    const damaged = await exportAndVerify();
    expect(damaged.verdict).toMatchObject({ verified: false, reason: 'hash', writer: entry.writer, seq: entry.seq });

    writeFileSync(file, original);
    expect((await exportAndVerify()).verdict).toMatchObject({ verified: true });
  });
});
