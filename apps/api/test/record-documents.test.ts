// Documents' changes in the record (docs/audit.md): a policy edited over the real API is chained with its text's
// digest; `tollgate audit export` restates the digest from the version's text as the store holds it, so the export of
// an untouched workspace verifies and one whose stored version text was rewritten (its digest too, as someone with the
// folder would) fails `tollgate audit verify` at that entry. On PostgreSQL, with the documents in the same database,
// the same holds of a version's text rewritten in its table.

import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyDocumentMigrations, PostgresDocumentStore } from '@tollgate/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import { EventHub } from '../src/server/event-hub.ts';
import { verifyRecord } from '../src/server/record/chain.ts';
import { chainDocumentChanges, textDigest } from '../src/server/record/documents.ts';
import { exportRecord, type RecordLine } from '../src/server/record/export.ts';
import { migratePostgres, POSTGRES_STATE_MIGRATIONS } from '../src/server/state/postgres-migrations.ts';
import { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import { runCli } from './cli-harness.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
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

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)("a document's change in the record on PostgreSQL", () => {
  it('is chained from the store on the same database, and a version text rewritten there is named', async () => {
    const schema = await freshSchema('record_docs');
    const pool = new pg.Pool({ connectionString: schema.url, max: 4 });
    const client = await pool.connect();
    try {
      await applyDocumentMigrations(client);
    } finally {
      client.release();
    }
    await migratePostgres(pool, POSTGRES_STATE_MIGRATIONS);
    const store = await PostgresDocumentStore.open({ pool, listen: false });
    const state = await PostgresStateStore.open(pool, testCustodialKeys());
    try {
      const events = new EventHub();
      const stop = chainDocumentChanges(events, store, state, () => new Date());
      const saved = await store.save({
        id: 'notes/policy.txt',
        text: 'refunds up to 50',
        author: { kind: 'person', label: 'olivia' },
        reason: 'first',
      });
      events.publish({ type: 'document', id: saved.id, sequence: saved.sequence });
      await stop();
      await state.checkpointRecord();

      const verify = async () => {
        const lines: RecordLine[] = [];
        await exportRecord(state.recordReader, (line) => void lines.push(line), { documents: store });
        const entries = lines.flatMap((l) => (l.type === 'entry' ? [l] : []));
        const keys = new Map(lines.flatMap((l) => (l.type === 'writer' ? [[l.writer, createPublicKey(l.public_key)] as const] : [])));
        const checkpoints = lines.flatMap((l) => (l.type === 'checkpoint' ? [l] : []));
        return { entries, verdict: verifyRecord(entries, checkpoints, keys) };
      };
      const untouched = await verify();
      expect(untouched.verdict.ok).toBe(true);
      const entry = untouched.entries.find((e) => e.kind === 'document.changed');
      expect(entry?.body).toMatchObject({ id: 'notes/policy.txt', sequence: saved.sequence, text_sha256: textDigest('refunds up to 50') });

      await pool.query("UPDATE document_versions SET text = convert_to('refunds up to 5000', 'UTF8') WHERE id = $1 AND sequence = $2", [
        saved.id,
        saved.sequence,
      ]);
      const tampered = await verify();
      expect(tampered.verdict).toMatchObject({ ok: false, first: { reason: 'hash', writer: entry?.writer, seq: entry?.seq } });
    } finally {
      await store.close();
      await state.close();
      await pool.end();
      await schema.drop();
    }
  });
});
