// The Cerbos peer: `cerbos server` from the npm package's platform binary, bound to 127.0.0.1 only,
// telemetry off, loading the refunds policy as two Cerbos resource policies (bench/peers/cerbos/):
// `tollgate_call` says allow or deny; when it allows, `tollgate_approval` says whether the call is held
// for approval. Both are asked in one HTTP check request per call (or per batch of calls).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { peerAmount } from './peer-amount.ts';
import type { Call } from './streams.ts';

const PEER_DIR = new URL('../peers/cerbos/', import.meta.url);

/** The cerbos binary the `cerbos` npm package installs for this platform, or why there is none. */
export function cerbosBinary(): { path: string } | { missing: string } {
  const name = `@cerbos/cerbos-${process.platform}-${process.arch}`;
  try {
    const path = createRequire(import.meta.url).resolve(name);
    return existsSync(path) ? { path } : { missing: `${name} resolves to ${path}, which does not exist` };
  } catch {
    return { missing: `${name} is not installed (the cerbos package ships binaries for linux and darwin, x64 and arm64)` };
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface CerbosServer {
  /** The check endpoint: POST {principal, resources} to it. */
  checkUrl: string;
  version: string;
  /** Cerbos's process id (its CPU time is read from /proc: cpu-time.ts). */
  pid: number | undefined;
  /** Decides calls in one check request; an unreadable amount is decided by the harness (deny). */
  decide(calls: Call[], firstId: number): Promise<string[]>;
  stop(): Promise<void>;
}

interface CheckResource {
  actions: string[];
  resource: { kind: string; id: string; attr: Record<string, unknown> };
}

/** The two resources Cerbos is asked about for one call, or undefined when the harness decides it. */
export function cerbosResources(call: Call, id: number): CheckResource[] | undefined {
  const amount = peerAmount(call.tool, call.args);
  if (amount.kind === 'unreadable') return undefined;
  const attr: Record<string, unknown> = amount.kind === 'amount' ? { units: amount.units, cut: amount.cut } : {};
  const actions = [call.tool.action];
  return [
    { actions, resource: { kind: 'tollgate_call', id: String(id), attr } },
    { actions, resource: { kind: 'tollgate_approval', id: String(id), attr } },
  ];
}

/** The body of one check request for `resources`. */
export function cerbosCheckBody(resources: CheckResource[], requestId = 'bench'): string {
  return JSON.stringify({ requestId, principal: { id: 'bench-agent', roles: ['agent'] }, resources });
}

interface CheckResponse {
  results: { resource: { id: string; kind: string }; actions: Record<string, string> }[];
}

/** Starts cerbos on two free loopback ports and waits until it serves. */
export async function startCerbos(): Promise<CerbosServer> {
  const binary = cerbosBinary();
  if ('missing' in binary) throw new Error(binary.missing);
  const [http, grpc] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    binary.path,
    [
      'server',
      `--config=${fileURLToPath(new URL('config.yaml', PEER_DIR))}`,
      '--log-level=error',
      // the gops debug listener would otherwise take :6666 on every interface
      '--debug-listen-addr=127.0.0.1:0',
      `--set=server.httpListenAddr=127.0.0.1:${http}`,
      `--set=server.grpcListenAddr=127.0.0.1:${grpc}`,
    ],
    {
      env: { ...process.env, CERBOS_NO_TELEMETRY: '1', CERBOS_BENCH_POLICIES: fileURLToPath(new URL('policies', PEER_DIR)) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${http}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`cerbos exited (${child.exitCode}): ${stderr}`);
    try {
      const r = await fetch(`${base}/_cerbos/health`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`cerbos did not serve within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const version = ((await (await fetch(`${base}/api/server_info`)).json()) as { version?: string }).version ?? 'unknown';
  const checkUrl = `${base}/api/check/resources`;
  return {
    checkUrl,
    version,
    pid: child.pid,
    async decide(calls, firstId) {
      const decisions: string[] = new Array(calls.length).fill('deny');
      const resources: CheckResource[] = [];
      calls.forEach((call, i) => {
        const r = cerbosResources(call, firstId + i);
        if (r) resources.push(...r);
      });
      if (resources.length === 0) return decisions;
      const res = await fetch(checkUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: cerbosCheckBody(resources),
      });
      if (!res.ok) throw new Error(`cerbos check: HTTP ${res.status} ${await res.text()}`);
      const body = (await res.json()) as CheckResponse;
      const call = new Map<number, string>();
      const approval = new Map<number, string>();
      for (const r of body.results) {
        const effect = Object.values(r.actions)[0] ?? 'EFFECT_DENY';
        (r.resource.kind === 'tollgate_call' ? call : approval).set(Number(r.resource.id), effect);
      }
      for (let i = 0; i < calls.length; i++) {
        const first = call.get(firstId + i);
        if (first === undefined) continue; // the harness decided it: deny
        decisions[i] = first !== 'EFFECT_ALLOW' ? 'deny' : approval.get(firstId + i) === 'EFFECT_ALLOW' ? 'require_approval' : 'allow';
      }
      return decisions;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
