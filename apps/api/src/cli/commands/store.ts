// tollgate store check|repair --data DIR: the folder store's fsck (docs/cli.md, docs/store.md "Faults").
// check writes nothing and lists every inconsistency; repair fixes what it can without losing anything.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkStore, repairStore, StoreError, type StoreFinding } from '@tollgate/store';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { type ParsedOptions, required } from '../options.ts';

function documentsOf(options: ParsedOptions): string {
  const dataDir = resolve(required(options.data, 'data'));
  const documents = join(dataDir, 'documents');
  if (!existsSync(documents) || !statSync(documents).isDirectory()) {
    throw new CliError('UNREADABLE', `${dataDir} holds no documents folder: not a Tollgate data folder`);
  }
  return documents;
}

function printFindings(findings: StoreFinding[], io: CliIo): void {
  for (const f of findings) io.stdout.write(`${f.code}: ${f.message}\n`);
}

/** Exit 0 when the store is whole, 1 listing each problem, 2 when the folder cannot be read. */
export function storeCheck(options: ParsedOptions, io: CliIo): number {
  const findings = checkStore(documentsOf(options));
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ ok: findings.length === 0, findings }, null, 2)}\n`);
  } else {
    printFindings(findings, io);
    io.stdout.write(findings.length === 0 ? 'store check: ok\n' : `store check: ${findings.length} problem(s)\n`);
  }
  return findings.length === 0 ? EXIT_OK : EXIT_INVALID;
}

/** Exit 0 when the store is whole after the repair, 1 when something only a backup can mend is left. */
export async function storeRepair(options: ParsedOptions, io: CliIo): Promise<number> {
  const documents = documentsOf(options);
  let result: Awaited<ReturnType<typeof repairStore>>;
  try {
    result = await repairStore(documents);
  } catch (err) {
    if (err instanceof StoreError)
      throw new CliError(err.code === 'locked' ? 'LOCKED' : 'STORE_DAMAGED', `store repair: ${err.message}`, EXIT_INVALID);
    throw err;
  }
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ ok: result.remaining.length === 0, actions: result.actions, remaining: result.remaining }, null, 2)}\n`,
    );
  } else {
    for (const action of result.actions) io.stdout.write(`${action}\n`);
    printFindings(result.remaining, io);
    io.stdout.write(
      result.remaining.length === 0
        ? 'store repair: ok\n'
        : `store repair: ${result.remaining.length} problem(s) left; each line says what mends it\n`,
    );
  }
  return result.remaining.length === 0 ? EXIT_OK : EXIT_INVALID;
}
