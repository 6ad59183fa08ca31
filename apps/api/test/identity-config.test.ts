// `serve --identity FILE` (cli/identity-file.ts, server/identity/identity-config.ts): the file read by the exact
// reader and checked by its schema; every fault is refused at startup naming its JSON Pointer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { identityOf } from '../src/cli/identity-file.ts';
import { CliError } from '../src/cli/io.ts';
import { readIdentityConfig } from '../src/server/identity/identity-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ISSUER = { issuer: 'https://idp.example.com/', member_claim: 'email' };
const faults = (value: unknown) => {
  const read = readIdentityConfig(typeof value === 'string' ? value : JSON.stringify(value));
  return read.ok ? [] : read.problems.map((p) => `${p.code} ${p.path ?? ''}`);
};

describe('the identity configuration', () => {
  it('settles the audiences: the issuer’s own, else the resource and its /mcp URL', () => {
    const read = readIdentityConfig(
      JSON.stringify({
        resource: 'https://tg.example.com/',
        issuers: [ISSUER, { ...ISSUER, issuer: 'https://other.example.com', audience: 'api://tollgate' }],
      }),
    );
    expect(read.ok && read.config).toMatchObject({
      resource: 'https://tg.example.com',
      mcpResource: 'https://tg.example.com/mcp',
      issuers: [{ audiences: ['https://tg.example.com', 'https://tg.example.com/mcp'] }, { audiences: ['api://tollgate'] }],
    });
  });

  it('names each fault by its JSON Pointer', () => {
    expect(faults({ resource: 'https://tg.example.com', issuers: [] })).toEqual(['INVALID_IDENTITY /issuers']);
    expect(faults({ resource: 'ftp://x', issuers: [{ ...ISSUER, roles: { claim: 'groups', map: { g: 'king' } } }] })).toEqual([
      'INVALID_IDENTITY /resource',
      'INVALID_IDENTITY /issuers/0/roles/map/g',
    ]);
    expect(faults({ resource: 'https://tg.example.com', issuers: [{ ...ISSUER, extra: 1 }, ISSUER] })).toEqual([
      'INVALID_IDENTITY /issuers/0',
      'INVALID_IDENTITY /issuers/1/issuer',
    ]);
    // Read exactly: a member named twice is refused, never resolved.
    expect(faults('{"resource": "https://a.example", "resource": "https://b.example", "issuers": []}')[0]).toMatch(/^DUPLICATE_MEMBER/);
  });

  it('stops serve before it opens anything, naming the file and the pointer', () => {
    const file = join(dir, 'identity.json');
    writeFileSync(file, JSON.stringify({ resource: 'https://tg.example.com', issuers: [{ issuer: 'idp', member_claim: 'email' }] }));
    const thrown = (() => {
      try {
        identityOf(file, {});
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(CliError);
    expect((thrown as CliError).code).toBe('INVALID_IDENTITY');
    expect((thrown as CliError).message).toContain(`${file}: INVALID_IDENTITY at /issuers/0/issuer:`);
    // The environment names the file when the flag does not; neither gives keys only.
    expect(() => identityOf(undefined, { TOLLGATE_IDENTITY_FILE: file })).toThrow(CliError);
    expect(identityOf(undefined, {})).toBeUndefined();
  });
});
