// The deployments the cluster suite loads (docs/performance.md, "The cluster suite"), each `tollgate serve` a child
// process seeded with the demo: one node on SQLite in a temporary data folder, one node on PostgreSQL, and two
// nodes on one PostgreSQL database. Each PostgreSQL deployment has a fresh schema of its own, migrated first and
// dropped when the deployment stops.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentKey, REPO_ROOT, readDemoKeys, spawnServer } from '../../apps/api/test/server-harness.ts';
import { freshSchema, type TestSchema } from '../../packages/store/test/postgres-fixture.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');

/** One deployment: the origins of its nodes and support-bot's key. */
export interface Deployment {
  name: string;
  urls: string[];
  agentKey: string;
  stop(): Promise<void>;
}

/**
 * Starts `nodes` nodes on one store: SQLite in a data folder (one node only), or a fresh PostgreSQL schema, which
 * the nodes reach through the URL `through` answers for the schema's when given (a counting proxy: pg-wire-counter.ts).
 */
export async function startDeployment(
  name: string,
  store: 'sqlite' | 'postgres',
  nodes = 1,
  through?: (url: string) => Promise<string>,
): Promise<Deployment> {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let schema: TestSchema | undefined;
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await schema?.drop();
  };
  try {
    if (store === 'postgres') {
      schema = await freshSchema('bench_cluster');
      const migrated = spawnSync(process.execPath, [BIN, 'migrate', '--database', schema.url], { cwd: REPO_ROOT, encoding: 'utf8' });
      if (migrated.status !== 0) throw new Error(`tollgate migrate failed: ${migrated.stderr}`);
    } else if (nodes !== 1) throw new Error('a SQLite data folder is measured with one node');
    const urls: string[] = [];
    const database = schema && (through ? await through(schema.url) : schema.url);
    for (let i = 0; i < nodes; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-cluster-'));
      dirs.push(dir);
      // The first node seeds the demo; the others find the database seeded.
      const { url, child } = await spawnServer(dir, [], { database, demo: i === 0 });
      children.push(child);
      urls.push(url);
    }
    return { name, urls, agentKey: agentKey({ keys: readDemoKeys(dirs[0] as string) }, 'support-bot'), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A clean stop (SIGTERM), so a node takes itself off the registry and writes what it queued. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(forced);
}
