// The store suite: save + activate latency, and reading the history of a document with 100 versions,
// on the folder store on disk (every write is a synced, atomic file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderDocumentStore } from '@tollgate/store';
import { type Figure, median, quantile } from './measure.ts';

const AUTHOR = { kind: 'developer', label: 'bench' } as const;
const ID = 'policies/bench.policy.json';

function text(i: number): string {
  return `${JSON.stringify({ schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: `r-${i}`, actions: ['orders.read'], effect: 'allow' }] }, null, 2)}\n`;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function runStoreSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-store-'));
  try {
    const store = await FolderDocumentStore.open(dir, { watch: false, maxVersionsPerDocument: 100 });
    for (let i = 0; i < 100; i++) await store.save({ id: ID, text: text(i), author: AUTHOR, reason: 'seed' });
    const save: number[] = [];
    const saveActivate: number[] = [];
    for (let i = 0; i < 60; i++) {
      save.push(await time(() => store.save({ id: ID, text: text(1000 + i), author: AUTHOR, reason: 'bench', activate: false })));
      const seq = (await store.history(ID)).at(-1)?.sequence ?? 1;
      saveActivate.push(await time(() => store.activate(ID, seq)));
    }
    const history: number[] = [];
    const readAll: number[] = [];
    for (let i = 0; i < 3; i++) for (const v of await store.history(ID)) await store.getVersion(ID, v.sequence); // warm-up
    for (let i = 0; i < 60; i++) {
      history.push(await time(() => store.history(ID)));
      readAll.push(
        await time(async () => {
          for (const v of await store.history(ID)) await store.getVersion(ID, v.sequence);
        }),
      );
    }
    const versions = (await store.history(ID)).length;
    await store.close();
    const figure = (name: string, values: number[]): Figure => ({
      suite: 'store',
      figure: name,
      unit: 'ms',
      median: median(values),
      p95: quantile(values, 0.95),
      runs: values.length,
    });
    return {
      figures: [
        figure('save a version (folder store)', save),
        figure('activate a version (folder store)', saveActivate),
        figure(`read the history of ${versions} versions`, history),
        figure(`read every one of ${versions} versions whole`, readAll),
      ],
      notes: [`store: ${versions} versions kept (maxVersionsPerDocument 100), in ${dir} (removed)`],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
