// The custodial keys at rest (docs/approver-keys.md): a data folder with no secret given makes its own secret file
// (owner-only); every private key in the database is sealed, so reading the whole database, every table and column,
// gives no key that signs; keys an earlier version stored in plain text are sealed at the next start; a secret
// that does not open them, or none for a shared database, is refused with its code and nothing written.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { custodialKeysFor, MemberKeySecretError, SECRET_FILE_NAME } from '../src/server/member-key-secret.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { CustodialKeys, NoSecretError, SecretMismatchError, sealingOf } from '../src/server/state/members/custodial-keys.ts';
import { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import { runCli } from './cli-harness.ts';

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.TOLLGATE_MEMBER_KEY_SECRET;
  delete process.env.TOLLGATE_MEMBER_KEY_SECRET;
});
afterEach(() => {
  if (saved !== undefined) process.env.TOLLGATE_MEMBER_KEY_SECRET = saved;
});

/** Every text value of every table of the database, as one who copied the file would read it. */
function everyText(dbPath: string): string[] {
  const db = openDatabase(dbPath);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return tables.flatMap(({ name }) =>
      (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]).flatMap((row) =>
        Object.values(row).filter((v): v is string => typeof v === 'string'),
      ),
    );
  } finally {
    db.close();
  }
}

/** Whether any text reads as a private key without a passphrase. */
function signingKeyIn(texts: readonly string[]): boolean {
  return texts.some((text) => {
    if (!text.includes('PRIVATE KEY')) return false;
    try {
      createPrivateKey(text);
      return true;
    } catch {
      return false;
    }
  });
}

describe('custodial keys at rest', () => {
  it('a data folder makes its own owner-only secret, and the database holds no key that signs', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tollgate-keys-'));
    expect((await runCli('members', 'add', 'ana', '--role', 'approver', '--data', data)).code).toBe(0);
    expect((await runCli('members', 'add', 'bo', '--role', 'owner', '--data', data)).code).toBe(0);
    expect(statSync(join(data, SECRET_FILE_NAME)).mode & 0o777).toBe(0o600);
    const texts = everyText(join(data, 'tollgate.db'));
    expect(texts.some((t) => t.startsWith('-----BEGIN ENCRYPTED PRIVATE KEY-----'))).toBe(true);
    expect(signingKeyIn(texts)).toBe(false);
    // The secret opens them, and the same secret is used at the next start.
    const state = new SqliteStateStore(openDatabase(join(data, 'tollgate.db')), custodialKeysFor({ env: {}, dataDir: data }));
    try {
      const ana = await state.findMember('ana');
      expect(state.custodial.open(ana?.private_key as string).asymmetricKeyType).toBe('ed25519');
    } finally {
      await state.close();
    }
  });

  it('seals keys stored in plain text at the next start, and refuses a secret that does not open them', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tollgate-keys-'));
    const path = join(data, 'tollgate.db');
    const keys = new CustodialKeys('a-secret-of-at-least-thirty-two-characters');
    const first = new SqliteStateStore(openDatabase(path), keys);
    await first.createMember('ana', 'approver');
    await first.close();
    // As an earlier version stored it.
    const plain = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const db = openDatabase(path);
    db.prepare("UPDATE members SET private_key = ? WHERE name = 'ana'").run(plain);
    db.close();
    expect(signingKeyIn(everyText(path))).toBe(true);
    expect(() => new SqliteStateStore(openDatabase(path), new CustodialKeys('another-secret-of-thirty-two-characters!!'))).not.toThrow();
    // That start sealed the plain key with its own secret, which is not the first one: the first is refused now.
    expect(signingKeyIn(everyText(path))).toBe(false);
    expect(() => new SqliteStateStore(openDatabase(path), keys)).toThrow(SecretMismatchError);
    process.env.TOLLGATE_MEMBER_KEY_SECRET = 'a-secret-of-at-least-thirty-two-characters';
    const cli = await runCli('keys', 'list', '--data', data);
    expect([cli.code, cli.stderr]).toEqual([2, expect.stringContaining('MEMBER_KEY_SECRET_MISMATCH')]);
  });

  it('an agent gateway (`tollgate mcp`) holds no secret: it seals nothing and opens no key', () => {
    const none = CustodialKeys.withoutSecret();
    const keys = new CustodialKeys('a-secret-of-at-least-thirty-two-characters');
    const sealed = keys.seal(generateKeyPairSync('ed25519').privateKey);
    const plain = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(
      sealingOf(
        [
          { id: 'a', private_key: sealed },
          { id: 'b', private_key: plain },
        ],
        none,
      ),
    ).toEqual([]);
    expect(() => none.open(sealed)).toThrow(NoSecretError);
    expect(() => none.seal(generateKeyPairSync('ed25519').privateKey)).toThrow(NoSecretError);
  });

  it('a shared database needs the secret given; a short or unreadable one is refused', () => {
    expect(() => custodialKeysFor({ env: {} })).toThrow(MemberKeySecretError);
    try {
      custodialKeysFor({ env: {} });
    } catch (err) {
      expect((err as MemberKeySecretError).code).toBe('MEMBER_KEY_SECRET_REQUIRED');
    }
    expect(() => custodialKeysFor({ env: { TOLLGATE_MEMBER_KEY_SECRET: 'short' } })).toThrow(/at least 32/);
    expect(() => custodialKeysFor({ env: {}, file: join(tmpdir(), 'no-such-secret-file') })).toThrow(/cannot be read/);
    expect(custodialKeysFor({ env: { TOLLGATE_MEMBER_KEY_SECRET: 'x'.repeat(32) } })).toBeInstanceOf(CustodialKeys);
  });
});
