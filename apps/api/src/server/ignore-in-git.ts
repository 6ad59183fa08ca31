// The data folder's .gitignore (docs/store.md): a team may keep the folder in git, and only its documents are
// versioned. Written when a data folder is opened (sqlite-context.ts) or made by the CLI (cli/data-folder.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@tollgate/store';

/** What a team keeping the data folder in git must not commit: the store's state, the database, the demo keys, the secret. */
const IGNORED = ['documents/.tollgate/', 'tollgate.db', 'tollgate.db-*', 'demo-keys.json', 'member-key.secret'];

/** Writes (or completes) the data folder's .gitignore, so only documents are versioned by the team (docs/store.md). */
export function ignoreInGit(dataDir: string): void {
  const path = join(dataDir, '.gitignore');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = IGNORED.filter((line) => !have.has(line));
  if (missing.length === 0) return;
  const head = text === '' ? "# Written by Tollgate: the store's state, the database and the demo keys stay out of git.\n" : '';
  writeFileAtomic(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${head}${missing.join('\n')}\n`);
}
