// Reads a JSON input file for the CLI: refused unread over the size limit, depth-bounded, exact.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { CliCode } from '@tollgate/engine';
import { type Diagnostic, readJsonText } from '@tollgate/engine/source';
import { CliError, refusedInput } from './io.ts';

/** A policy document, like any stored document, is at most 4 MiB. */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

export interface JsonInput {
  value: unknown;
  /** Problems that make the text inexact (duplicate members, inexact numbers). */
  diagnostics: Diagnostic[];
}

/** Reads and parses a JSON file; throws CliError (exit 2) when it cannot be read as JSON. */
export function readJsonFile(file: string, maxBytes = MAX_DOCUMENT_BYTES): JsonInput {
  const text = readTextFile(file, maxBytes);
  const result = readJsonText(text, { maxLength: maxBytes, maxDepth: 64 });
  if (!result.ok) throw refusedInput(file, [result.diagnostic]);
  return { value: result.value, diagnostics: result.diagnostics };
}

/** Reads a UTF-8 file, checking its size before reading a byte of it. */
export function readTextFile(file: string, maxBytes: number): string {
  let fd: number;
  try {
    // Non-blocking, so a FIFO (or a device) named as a file opens at once and is refused below as not a
    // regular file, instead of the CLI waiting for a writer that never comes.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw unreadable(file, 'UNREADABLE', reason(err));
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw unreadable(file, 'UNREADABLE', 'not a regular file');
    if (stat.size > maxBytes) throw unreadable(file, 'TOO_LARGE', `${stat.size} bytes; the limit is ${maxBytes} bytes (refused unread)`);
    const buffer = Buffer.alloc(stat.size);
    let offset = 0;
    while (offset < stat.size) {
      const n = readSync(fd, buffer, offset, stat.size - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer.subarray(0, offset));
    return text;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw unreadable(file, 'UNREADABLE', reason(err));
  } finally {
    closeSync(fd);
  }
}

/** A file that cannot be read at all: no place in it to point at. */
function unreadable(file: string, code: CliCode, message: string): CliError {
  return refusedInput(file, [{ code, severity: 'error', message }]);
}

function reason(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  if (err instanceof TypeError) return 'not UTF-8 text';
  return code ?? 'cannot be read';
}
