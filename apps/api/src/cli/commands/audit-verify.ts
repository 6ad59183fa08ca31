// tollgate audit verify FILE: a record's JSON lines checked offline, with no server and no database (docs/audit.md):
// every line read by the exact reader, every hash, link and checkpoint signature checked by the chain's verifier
// (server/record/chain.ts), and the first place anything was changed, removed, inserted or reordered named by
// its line. Exit 0 verified, 1 broken (RECORD_BROKEN), 2 unreadable (RECORD_UNREADABLE).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';
import { z } from 'zod';
import { firstBadApproval, memberKeysOf, type SignerLine } from '../../server/record/approval-signatures.ts';
import {
  type ChainEntry,
  type ChainHead,
  type Checkpoint,
  type JsonValue,
  type RecordVerdict,
  verifyRecord,
} from '../../server/record/chain.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { readTextFile } from '../read-input.ts';
import { checkpointFields, count, entryFields, Hex64, holdsKeptNumber, Key, Name, signerFields } from './record-shapes.ts';

/** The largest record file read: far over a busy year's, far under what would exhaust memory. */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
/** The longest line: an entry's body is ids and digests. */
const MAX_LINE_CHARS = 64 * 1024;

const WriterLine = z.object({ type: z.literal('writer'), writer: Name, public_key: Key }).strict();
const EntryLine = z.object({ type: z.literal('entry'), ...entryFields }).strict();
const CheckpointLine = z.object({ type: z.literal('checkpoint'), ...checkpointFields }).strict();
const MemberLine = z.object({ type: z.literal('member'), ...signerFields }).strict();
const RangeLine = z.object({ type: z.literal('range'), since: z.string().min(1).max(64), until: z.string().min(1).max(64) }).strict();
const StartLine = z.object({ type: z.literal('start'), writer: Name, seq: z.number().int().min(0), head: Hex64 }).strict();
const Line = z.discriminatedUnion('type', [WriterLine, EntryLine, CheckpointLine, MemberLine, RangeLine, StartLine]);

function unreadable(file: string, line: number, why: string): CliError {
  return new CliError('RECORD_UNREADABLE', `${file}:${line}: RECORD_UNREADABLE: ${why}`);
}

interface ReadRecord {
  entries: ChainEntry[];
  checkpoints: Checkpoint[];
  keys: Map<string, KeyObject>;
  /** The public keys that signed approvals, as given. */
  members: SignerLine[];
  /** The line of each entry, then of each checkpoint, in their order. */
  entryLines: number[];
  checkpointLines: number[];
  /** A part of a record: its time range, and where each writer's run starts. */
  range?: { since: string; until: string };
  starts: Map<string, ChainHead>;
}

function readRecord(file: string, text: string): ReadRecord {
  const record: ReadRecord = {
    entries: [],
    checkpoints: [],
    keys: new Map(),
    members: [],
    entryLines: [],
    checkpointLines: [],
    starts: new Map(),
  };
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const n = i + 1;
    if (raw.trim() === '') continue;
    if (raw.length > MAX_LINE_CHARS) throw unreadable(file, n, `the line is over ${MAX_LINE_CHARS} characters`);
    const read = readJsonText(raw, { maxLength: MAX_LINE_CHARS, maxDepth: 16 });
    if (!read.ok) throw unreadable(file, n, `${read.diagnostic.code}: ${read.diagnostic.message}`);
    const [first] = read.diagnostics;
    if (first) throw unreadable(file, n, `${first.code}: ${first.message}`);
    if (holdsKeptNumber(read.value)) throw unreadable(file, n, 'a number that is not a whole number of at most 15 digits');
    const parsed = Line.safeParse(read.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw unreadable(file, n, `/${issue?.path.join('/') ?? ''}: ${issue?.message ?? 'not a line of a record'}`);
    }
    const line = parsed.data;
    if (line.type === 'range') {
      record.range = { since: line.since, until: line.until };
    } else if (line.type === 'start') {
      record.starts.set(line.writer, { writer: line.writer, seq: line.seq, hash: line.head });
    } else if (line.type === 'writer') {
      try {
        const key = createPublicKey(line.public_key);
        if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
        record.keys.set(line.writer, key);
      } catch (err) {
        throw unreadable(file, n, `the public key of ${line.writer} does not read: ${(err as Error).message}`);
      }
    } else if (line.type === 'member') {
      const { type: _, ...signer } = line;
      record.members.push(signer);
    } else if (line.type === 'entry') {
      const { type: _type, ...entry } = line;
      record.entries.push({ ...entry, body: entry.body as { [key: string]: JsonValue } });
      record.entryLines.push(n);
    } else {
      const { type: _type, ...checkpoint } = line;
      record.checkpoints.push(checkpoint);
      record.checkpointLines.push(n);
    }
  }
  return record;
}

export function auditVerify(file: string, options: { json?: boolean }, io: CliIo): number {
  const record = readRecord(file, readTextFile(file, MAX_RECORD_BYTES));
  // A part of a record (an export of a time range) is checked from where each writer's run starts.
  const chain = verifyRecord(record.entries, record.checkpoints, record.keys, record.range ? { starts: record.starts } : {});
  // The chain first; then each approval against its signer's key.
  const badApproval = chain.ok
    ? firstBadApproval(record.entries, memberKeysOf(record.members), { partial: record.range !== undefined })
    : undefined;
  const verdict: RecordVerdict = badApproval ? { ok: false, first: badApproval } : chain;
  const writers = new Set(record.entries.map((e) => e.writer)).size;
  if (verdict.ok) {
    if (options.json)
      io.stdout.write(`${JSON.stringify({ verified: true, entries: verdict.entries, checkpoints: verdict.checkpoints, writers })}\n`);
    else
      io.stdout.write(
        `audit verify: ${count(verdict.entries, 'entry', 'entries')} of ${count(writers, 'writer', 'writers')} and ${count(verdict.checkpoints, 'checkpoint', 'checkpoints')}: verified\n`,
      );
    return EXIT_OK;
  }
  const { first } = verdict;
  const line = first.index !== null ? record.entryLines[first.index] : record.checkpointLines[first.checkpoint ?? -1];
  // A broken record is the verdict, not a failure of the command: said on stderr, and as JSON when asked.
  if (options.json) io.stdout.write(`${JSON.stringify({ verified: false, line, ...first })}\n`);
  io.stderr.write(`${file}:${line}: RECORD_BROKEN (${first.reason}): ${first.message}\n`);
  return EXIT_INVALID;
}
