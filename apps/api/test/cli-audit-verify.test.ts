// tollgate audit verify FILE (docs/audit.md): a record's JSON lines checked offline, as a real CLI run: the example
// record verifies; an edited, removed, swapped or inserted entry, an altered or forged checkpoint and a truncation
// under a checkpoint each exit 1 naming the line where the record first breaks; a file that is not a record exits 2
// naming its line, whatever reader would have made of it (a repeated member, a number that is not whole).
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENESIS, headAfter, nextEntry, signCheckpoint } from '../src/server/record/chain.ts';
import { runCli, workspace } from './cli-harness.ts';
import { REPO_ROOT } from './server-harness.ts';

const EXAMPLE = readFileSync(join(REPO_ROOT, 'examples/record.jsonl'), 'utf8');
const lines = EXAMPLE.trimEnd().split('\n');

async function verify(text: string, ...flags: string[]) {
  const file = workspace().file('record.jsonl', text);
  return runCli('audit', 'verify', file, ...flags);
}

describe('tollgate audit verify', () => {
  it('verifies the example record, and says so as JSON', async () => {
    const run = await verify(EXAMPLE);
    expect([run.code, run.stdout]).toEqual([0, 'audit verify: 4 entries of 1 writer and 1 checkpoint: verified\n']);
    const json = await verify(EXAMPLE, '--json');
    expect(JSON.parse(json.stdout)).toEqual({ verified: true, entries: 4, checkpoints: 1, writers: 1 });
  });

  it('names the line where an edited, removed, swapped or inserted entry breaks the record', async () => {
    const cases: [string, string[], number, string][] = [
      ['an amount edited', lines.map((l) => l.replace('"amount":"500"', '"amount":"5"')), 4, 'hash'],
      ['an entry removed', lines.filter((_, i) => i !== 2), 3, 'order'],
      ['two entries swapped', [lines[0], lines[1], lines[3], lines[2], lines[4], lines[5]] as string[], 3, 'order'],
      ['an entry repeated', [...lines.slice(0, 3), lines[2], ...lines.slice(3)] as string[], 4, 'order'],
      ['the last entry removed, under the checkpoint', [...lines.slice(0, 4), lines[5]] as string[], 5, 'truncated'],
    ];
    for (const [what, tampered, line, reason] of cases) {
      const run = await verify(`${tampered.join('\n')}\n`, '--json');
      expect(run.code, what).toBe(1);
      expect(JSON.parse(run.stdout), what).toMatchObject({ verified: false, line, reason });
      expect(run.stderr, what).toMatch(new RegExp(`:${line}: RECORD_BROKEN \\(${reason}\\)`));
    }
  });

  it('refuses a checkpoint signed by another key, or whose signature was altered', async () => {
    const checkpoint = JSON.parse(lines[5] as string);
    const other = generateKeyPairSync('ed25519');
    const forged = signCheckpoint({ writer: 'node-1', seq: checkpoint.seq, hash: checkpoint.head }, checkpoint.at, {}, other.privateKey);
    for (const line of [
      JSON.stringify({ type: 'checkpoint', ...forged }),
      JSON.stringify({ ...checkpoint, signature: Buffer.alloc(64, 1).toString('base64') }),
    ]) {
      const run = await verify(`${[...lines.slice(0, 5), line].join('\n')}\n`);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(':6: RECORD_BROKEN (signature)');
    }
  });

  it('refuses what is not a record, naming the line, whatever another reader would make of it', async () => {
    const writer = lines[0] as string;
    const entry = lines[1] as string;
    const cases: [string, string][] = [
      ['not JSON', `${writer}\n{"type":\n`],
      ['a repeated member', `${writer}\n${entry.replace('"type":"entry",', '"type":"entry","type":"entry",')}\n`],
      ['a number that is not whole', `${writer}\n${entry.replace('"seq":1', '"seq":1.0')}\n`],
      ['an unknown line', `${writer}\n{"type":"comment","text":"hi"}\n`],
      ['a member too many', `${writer}\n${entry.replace('"type":"entry",', '"type":"entry","extra":true,')}\n`],
      [
        'a key that is not Ed25519',
        `${JSON.stringify({ type: 'writer', writer: 'node-1', public_key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }) })}\n`,
      ],
    ];
    for (const [what, text] of cases) {
      const run = await verify(text);
      expect(run.code, what).toBe(2);
      expect(run.stderr, what).toMatch(/record\.jsonl:2?\d*: RECORD_UNREADABLE: /);
    }
  });

  it('checks every writer of a record of several, each with its own chain and key', async () => {
    const keys = ['a', 'b'].map((w) => ({ w, ...generateKeyPairSync('ed25519') }));
    const out = keys.map((k) =>
      JSON.stringify({ type: 'writer', writer: k.w, public_key: k.publicKey.export({ type: 'spki', format: 'pem' }) }),
    );
    const heads = new Map(keys.map((k) => [k.w, { writer: k.w, seq: 0, hash: GENESIS }]));
    for (let i = 0; i < 6; i++) {
      const w = i % 2 === 0 ? 'a' : 'b';
      const e = nextEntry(heads.get(w) as never, 'decision', `2026-12-01T10:00:0${i}.000Z`, { call_id: `c${i}` });
      heads.set(w, headAfter(e));
      out.push(JSON.stringify({ type: 'entry', ...e }));
    }
    for (const k of keys)
      out.push(
        JSON.stringify({ type: 'checkpoint', ...signCheckpoint(heads.get(k.w) as never, '2026-12-01T10:00:09.000Z', {}, k.privateKey) }),
      );
    expect((await verify(`${out.join('\n')}\n`)).stdout).toBe('audit verify: 6 entries of 2 writers and 2 checkpoints: verified\n');
    // Writer b's checkpoint under writer a's name: signed by the wrong key.
    const swapped = out.map((l) => (l.startsWith('{"type":"checkpoint","writer":"b"') ? l.replace('"writer":"b"', '"writer":"a"') : l));
    expect((await verify(`${swapped.join('\n')}\n`)).code).toBe(1);
  });
});
