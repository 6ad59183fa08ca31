// `tollgate serve --audit-log FILE|-` (or TOLLGATE_AUDIT_LOG): the record as a stream of JSON lines for a SIEM
// (docs/audit.md, "The audit log stream"; the lines are server/record/stream-lines.ts). A copy, never the record:
// the chain in the database is. So writing never waits on the stream: a line is handed to a buffered writer (the
// file opened for appending, or stdout) and returns at once; while more than MAX_BUFFERED bytes wait to be written,
// lines are dropped and counted, and once the writer catches up one `dropped` line (and a warning on stderr) says
// how many. The file is opened as serve starts, so a path that cannot be opened fails the start (UNWRITABLE).
import { closeSync, createWriteStream, openSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { checkpointLine, droppedLine, entryLine, writerLine } from '../server/record/stream-lines.ts';
import type { RecordListener } from '../server/record/writer.ts';
import type { StateStore } from '../server/state/state-store.ts';
import { CliError, type CliIo } from './io.ts';
import type { ParsedOptions } from './options.ts';

/** Bytes waiting to be written beyond which lines are dropped. */
export const MAX_BUFFERED = 8 * 1024 * 1024;

/** Where the stream goes: `--audit-log`, else TOLLGATE_AUDIT_LOG (empty is unset); `-` is stdout. */
export function auditLogOf(options: ParsedOptions, env: Record<string, string | undefined> = process.env): string | undefined {
  const given = options['audit-log'] ?? (env.TOLLGATE_AUDIT_LOG === '' ? undefined : env.TOLLGATE_AUDIT_LOG);
  if (given === '') throw new CliError('USAGE', '--audit-log is a file or - (stdout), not empty');
  return given;
}

/** The stream's writer: lines in, bytes out in order, never waited on. */
export class AuditLog {
  private dropped = 0;
  private waiting = false;
  private failed = false;
  private stopFollowing: (() => void) | undefined;

  /**
   * @param out where lines go (a file's write stream, or stdout)
   * @param ends whether closing ends `out` (a file) or only waits for what is written (stdout)
   */
  constructor(
    private readonly out: Writable,
    private readonly ends: boolean,
    private readonly name: string,
    private readonly stderr: CliIo['stderr'],
    private readonly maxBuffered = MAX_BUFFERED,
  ) {
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (this.failed) return;
      this.failed = true;
      stderr.write(`tollgate serve: the audit log ${name} cannot be written (${err.code ?? err.message}); it stops here\n`);
    });
  }

  /** Writes the writer's line, then each entry and checkpoint `state` chains from now on. */
  follow(state: Pick<StateStore, 'recordWriter' | 'onRecord'>): void {
    this.write(writerLine(state.recordWriter));
    const listener: RecordListener = (event) => {
      this.write('entry' in event ? entryLine(event.entry) : checkpointLine(event.checkpoint));
    };
    this.stopFollowing = state.onRecord(listener);
  }

  /** Hands one line to the writer, or drops and counts it while the writer is too far behind. */
  write(line: string): void {
    if (this.failed) return;
    if (this.out.writableLength > this.maxBuffered) {
      this.dropped++;
      if (!this.waiting) {
        this.waiting = true;
        this.out.once('drain', () => {
          this.waiting = false;
          this.reportDropped();
        });
      }
      return;
    }
    this.out.write(`${line}\n`);
  }

  /** Stops following, says what was dropped, and resolves once every line handed over is written. */
  async close(): Promise<void> {
    this.stopFollowing?.();
    this.stopFollowing = undefined;
    if (this.failed) return;
    this.reportDropped();
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      this.out.once('error', done);
      if (this.ends) this.out.end(done);
      else this.out.write('', done);
    });
  }

  private reportDropped(): void {
    if (this.dropped === 0 || this.failed) return;
    const lines = this.dropped;
    this.dropped = 0;
    this.out.write(`${droppedLine(lines, new Date())}\n`);
    this.stderr.write(`tollgate serve: the audit log ${this.name} fell behind and dropped ${lines} lines (the record keeps them)\n`);
  }
}

/**
 * Opens the stream at `path` for appending (`-`: stdout), so a path that cannot be opened fails the start with a
 * message naming it; the file's writes then go through a buffered write stream that never blocks the gate.
 */
export function openAuditLog(path: string, io: CliIo, stdout: Writable = process.stdout): AuditLog {
  if (path === '-') return new AuditLog(stdout, false, 'on stdout', io.stderr);
  let fd: number;
  try {
    fd = openSync(path, 'a', 0o640);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliError('UNWRITABLE', `tollgate serve: cannot open the audit log ${path}: ${code}`);
  }
  try {
    return new AuditLog(createWriteStream('', { fd, flags: 'a' }), true, path, io.stderr);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
