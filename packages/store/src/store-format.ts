// The folder store's files (docs/store.md, "On disk"): how an index, a version file and a pending marker
// are written and read back, with the checksums that let damage be found and named instead of guessed at.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestOf } from './digest.ts';
import type { DocumentIndex } from './document-index.ts';
import type { DocumentVersion } from './types.ts';

export const FORMAT = 2;

export interface FolderIndex extends DocumentIndex {
  id: string;
  /** sha-256 of each version file's bytes, by sequence (format 2; an older index has none). */
  files?: Record<string, string>;
}

export interface VersionFile {
  version: DocumentVersion;
  text: string;
}

export interface PendingMarker {
  /** The version the working copy is being rewritten to. */
  sequence: number;
  /** sha-256 of the working copy's text when the marker was written (null: there was none); absent in an older marker. */
  workingDigest?: string | null;
}

export type Read<T> = { ok: true; value: T } | { ok: false; missing: boolean; why: string };

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** An index's text: its fields, then a checksum of them, so a garbled index that still parses is caught. */
export function encodeIndex(index: FolderIndex): string {
  const body = {
    format: FORMAT,
    id: index.id,
    next: index.next,
    running: index.running,
    activations: index.activations,
    versions: index.versions,
    files: index.files ?? {},
  };
  return JSON.stringify({ ...body, checksum: sha256(JSON.stringify(body)) });
}

/** The members of an index of the first format, written before checksums. */
const FIRST_FORMAT_INDEX = new Set(['id', 'next', 'running', 'activations', 'versions']);

export function decodeIndex(bytes: Buffer): Read<FolderIndex> {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { ok: false, missing: false, why: 'is not JSON (truncated or garbled)' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('is not an object');
  if ('checksum' in value) {
    const { checksum, ...body } = value;
    if (checksum !== sha256(JSON.stringify(body))) return bad('does not match its checksum (garbled)');
  } else if (Object.keys(value).some((k) => !FIRST_FORMAT_INDEX.has(k))) {
    // Only an index of the first format goes without a checksum: any other member (a garbled "checksum"
    // name, "format", "files") says this one had one.
    return bad('has lost its checksum (garbled)');
  }
  const { id, next, running, activations, versions, files } = value;
  if (typeof id !== 'string') return bad('names no document');
  if (!Number.isSafeInteger(next) || (next as number) < 1) return bad('has no next sequence');
  if (running !== null && !Number.isSafeInteger(running)) return bad('has no running sequence');
  if (!Array.isArray(activations) || !activations.every((s) => Number.isSafeInteger(s))) return bad('has no activations');
  if (!Array.isArray(versions) || !versions.every(isVersion)) return bad('has a malformed version entry');
  if (files !== undefined && (files === null || typeof files !== 'object')) return bad('has malformed file checksums');
  return {
    ok: true,
    value: {
      id,
      next: next as number,
      running: running as number | null,
      activations: activations as number[],
      versions: versions as DocumentVersion[],
      ...(files ? { files: files as Record<string, string> } : {}),
    },
  };
}

/** A version file's text: the version as stored, its text, and a checksum of both. */
export function encodeVersionFile(version: DocumentVersion, text: string): string {
  const body = { format: FORMAT, version, text };
  return JSON.stringify({ ...body, checksum: sha256(JSON.stringify(body)) });
}

/**
 * Reads a version file and checks it against itself (its checksum; an older file, without one, against
 * its text's digest) and, when given, against the index's checksum of its bytes.
 */
export function readVersionFile(path: string, expectedFileSha?: string): Read<VersionFile> {
  const read = readBytes(path);
  if (!read.ok) return read;
  const bytes = read.value;
  if (expectedFileSha !== undefined && sha256(bytes) !== expectedFileSha) return bad('does not match the checksum the index keeps');
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return bad('is not JSON (truncated or garbled)');
  }
  if (value === null || typeof value !== 'object') return bad('is not an object');
  if ('checksum' in value) {
    const { checksum, ...body } = value;
    if (checksum !== sha256(JSON.stringify(body))) return bad('does not match its checksum (garbled)');
  } else if (Object.keys(value).some((k) => k !== 'version' && k !== 'text')) {
    // Only a file of the first format ({version, text}) goes without a checksum: any other member (a
    // garbled "checksum" name, "format") says this file had one.
    return bad('has lost its checksum (garbled)');
  }
  const { version, text } = value;
  if (typeof text !== 'string' || !isVersion(version)) return bad('is malformed');
  if (digestOf(text) !== version.digest) return bad("does not match its text's digest (garbled)");
  return { ok: true, value: { version, text } };
}

export function decodePending(bytes: Buffer): PendingMarker | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as PendingMarker;
    return Number.isSafeInteger(value.sequence) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The sequences of the version files in a document's folder, sorted (temp files and strays left out). */
export function versionFileSequences(docDir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(join(docDir, 'versions'));
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const m = /^([1-9][0-9]*)\.json$/.exec(name);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
}

/**
 * An index rebuilt from version files alone (each carries its metadata): every whole file is a version;
 * the running one is the newest whose text is the working copy's, else the newest that was made running
 * when it was stored. Damaged files are left out and named by the caller.
 */
export function rebuildIndex(id: string, files: VersionFile[], workingDigest: string | undefined): FolderIndex | undefined {
  if (files.length === 0) return undefined;
  const sorted = [...files].sort((a, b) => a.version.sequence - b.version.sequence);
  const loadable = sorted.filter((f) => !f.version.rejected);
  const byText = workingDigest === undefined ? undefined : loadable.filter((f) => f.version.digest === workingDigest).at(-1);
  const byMark = loadable.filter((f) => f.version.running).at(-1);
  const running = (byText ?? byMark)?.version.sequence ?? null;
  const activations = loadable.filter((f) => f.version.running && f.version.sequence !== running).map((f) => f.version.sequence);
  if (running !== null) activations.push(running);
  return {
    id,
    next: (sorted.at(-1) as VersionFile).version.sequence + 1,
    running,
    activations,
    versions: sorted.map((f) => ({ ...f.version, id, running: f.version.sequence === running })),
    files: {},
  };
}

function bad<T>(why: string): Read<T> {
  return { ok: false, missing: false, why };
}

function isVersion(v: unknown): v is DocumentVersion {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(o.sequence) &&
    typeof o.digest === 'string' &&
    typeof o.running === 'boolean' &&
    typeof o.rejected === 'boolean' &&
    typeof o.author === 'object' &&
    o.author !== null &&
    typeof o.reason === 'string' &&
    Array.isArray(o.problems)
  );
}

/** A file's bytes, or why there are none (missing, or unreadable): the first step of every store read. */
export function readBytes(path: string): Read<Buffer> {
  try {
    return { ok: true, value: readFileSync(path) };
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, missing, why: missing ? 'is missing' : 'cannot be read' };
  }
}

/** The id a document folder is named for (a long id's folder is named by its digest: then the folder's name). */
export function idOfDir(entry: string): string {
  try {
    return entry.startsWith('id-') ? entry : decodeURIComponent(entry);
  } catch {
    return entry;
  }
}

/** A folder's entries, sorted; none when it cannot be read. */
export function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
