// The mcp suite: what the MCP gateway adds to an allowed call. The SDK's own Client calls the recording upstream
// (apps/api/test/fixtures/recording-upstream.mjs, which records nothing without RECORD_FILE) three ways in one run:
// directly over stdio, through `tollgate mcp` (the bin, stdio) and through /mcp of a spawned `tollgate serve`
// (real HTTP on loopback), each call sequential, the paths taking turns round by round so the machine's load
// falls on each alike. The added latency is a path's percentile less the direct path's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mapUpstreams, nodeUpstream, RECORDER } from '../../apps/api/test/mcp-fixture.ts';
import { agentKey, REPO_ROOT, spawnServer, startServer } from '../../apps/api/test/server-harness.ts';
import { buildCliBundle } from './cli-bundle.ts';
import { type Figure, figureOf, median, quantile } from './measure.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
/** Calls per path (`MCP_BENCH_CALLS`), unless the time bound ends the run first. */
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 2000);
const WARMUP = 200;
/** Calls of the long session on each path (`MCP_BENCH_SESSION_CALLS`): its last 100 must cost what its first 100 did. */
const SESSION_CALLS = Number(process.env.MCP_BENCH_SESSION_CALLS ?? 10_000);
const ROUNDS = 20;
/**
 * A folder for V8 CPU profiles of both gateways (`MCP_BENCH_PROFILE=DIR`): each is started with `--cpu-prof` and
 * writes its profile there as it stops (docs/performance.md, "The mcp suite").
 */
const PROFILE_DIR = process.env.MCP_BENCH_PROFILE;
const PROFILE_ARGS = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
/** No round starts once this much time has passed since the warm-up began, so a loaded machine still ends in about a minute. */
const BOUND_MS = 60_000;

/** One way of reaching the upstream's `read` tool, and the timings of its calls in ms. */
export interface McpPath {
  name: string;
  ms: number[];
  /** The text of the last answer: every path must answer the same. */
  answer: string;
}

interface Contender {
  name: string;
  client: Client;
  tool: string;
}

/** Text of a tool result's first item, or an error when the call did not give a result (a denied call, say). */
function answerOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  if (result.isError || first?.type !== 'text') throw new Error(`the call was not answered as allowed: ${JSON.stringify(result)}`);
  return first.text as string;
}

async function timeCall(c: Contender, i: number): Promise<{ ms: number; answer: string }> {
  const started = process.hrtime.bigint();
  const result = await c.client.callTool({ name: c.tool, arguments: { id: `o-${i % 100}` } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, answer: answerOf(result) };
}

export interface McpOptions {
  calls: number;
  warmup: number;
  rounds: number;
  boundMs: number;
  /** Calls of the long session on each path, on connections of their own (0: none). */
  sessionCalls?: number;
}

/** The three paths, each a new connection (so a new MCP session through each gateway). */
async function connectPaths(dataDir: string, url: string, key: string): Promise<Contender[]> {
  const env = { PATH: process.env.PATH ?? '' };
  const connect = async (name: string, tool: string, transport: StdioClientTransport | StreamableHTTPClientTransport) => {
    const client = new Client({ name: 'bench-agent', version: '1' });
    await client.connect(transport);
    return { name, client, tool };
  };
  return [
    await connect(
      'direct: Client -> upstream (stdio)',
      'read',
      new StdioClientTransport({ command: process.execPath, args: [RECORDER], env, stderr: 'ignore' }),
    ),
    await connect(
      'tollgate mcp (stdio) -> upstream',
      'read_order',
      new StdioClientTransport({
        command: process.execPath,
        args: [...PROFILE_ARGS, BIN, 'mcp', '--agent', 'support-bot', '--data', dataDir],
        env: { ...env, TOLLGATE_AGENT_KEY: key },
        stderr: 'ignore',
      }),
    ),
    await connect(
      'tollgate serve /mcp (HTTP) -> upstream',
      'read_order',
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
        fetch: fetchWithoutPostSignal,
      }),
    ),
  ];
}

/**
 * fetch without the transport's signal on a POST: the SDK's client hands every request the one signal of its
 * transport, on which undici leaves a listener per request until the request is collected, so a long session's
 * client slowed itself (MaxListenersExceededWarning after 1,500 calls) and the bench would have counted that
 * against the gateway. A POST's answer ends with its call; the GET stream, which lasts, keeps the signal, so
 * closing the client still ends it.
 */
const fetchWithoutPostSignal: typeof fetch = (input, init) => fetch(input, init?.method === 'POST' ? { ...init, signal: null } : init);

/** Turns of the long session: the paths take turns this many calls at a time, so the machine's load falls on each alike. */
const SESSION_TURN = 100;

/**
 * One long session on each path (new connections, so a new MCP session through each gateway): after the warm-up
 * calls, `sessionCalls` sequential calls each, the paths taking turns of SESSION_TURN calls. Stops (and says so in
 * `notes`) once twice the rounds' bound has passed.
 */
async function measureLongSessions(dataDir: string, url: string, key: string, options: McpOptions, notes: string[]): Promise<McpPath[]> {
  const calls = options.sessionCalls ?? 0;
  if (calls === 0) return [];
  const contenders = await connectPaths(dataDir, url, key);
  try {
    const sessions: McpPath[] = contenders.map((c) => ({ name: c.name, ms: [], answer: '' }));
    // A new `tollgate mcp` is a new process: its first calls would be slow for its JIT, not for its session. The
    // warm-up calls are the session's own, so it holds warmup + calls calls in the end.
    for (const c of contenders) for (let i = 0; i < options.warmup; i++) await timeCall(c, i);
    const started = Date.now();
    for (let done = 0; done < calls; done += SESSION_TURN) {
      if (done > 0 && Date.now() - started > 2 * options.boundMs) {
        notes.push(`mcp: the long session stopped after ${done} of ${calls} calls per path, the ${(2 * options.boundMs) / 1000} s bound`);
        break;
      }
      for (const [k, c] of contenders.entries()) {
        const session = sessions[k] as McpPath;
        for (let i = done; i < Math.min(calls, done + SESSION_TURN); i++) {
          const { ms, answer } = await timeCall(c, i);
          session.ms.push(ms);
          session.answer = answer;
        }
      }
    }
    return sessions;
  } finally {
    await Promise.all(contenders.map((c) => c.client.close().catch(() => undefined)));
  }
}

/**
 * Sets up a demo data folder with read_order (orders.read, allowed by the demo policy) mapped to the recorder's
 * `read`, starts the three paths, warms each up, then times `calls` sequential calls per path in `rounds` rounds,
 * the paths taking turns. Starts no round (and says so in `notes`) once `boundMs` have passed since the warm-up began.
 *
 * @example
 * const { paths } = await measureMcpPaths({ calls: 2000, warmup: 200, rounds: 10, boundMs: 60_000 });
 */
export async function measureMcpPaths(options: McpOptions): Promise<{ paths: McpPath[]; sessions: McpPath[]; notes: string[] }> {
  const notes: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-mcp-'));
  const contenders: Contender[] = [];
  let serve: Awaited<ReturnType<typeof spawnServer>> | undefined;
  try {
    // The demo seed and the mapping, written through the API as an owner would; then the folder is served anew.
    const seeding = await startServer({ dataDir });
    const key = agentKey(seeding, 'support-bot');
    try {
      // No env names: the gateways hand the recorder no RECORD_FILE, so it records nothing.
      await mapUpstreams(seeding, [nodeUpstream('recorder', RECORDER)], { read_order: { server: 'recorder', tool: 'read' } });
    } finally {
      await seeding.stop();
    }
    // The secret that sealed the seeding server's keys: the environment's, else the folder's own file (an empty
    // value reads as none given, member-key-secret.ts); the harness's test secret would not open them.
    const secret = process.env.TOLLGATE_MEMBER_KEY_SECRET ?? '';
    serve = await spawnServer(dataDir, [], { nodeArgs: PROFILE_ARGS, env: { TOLLGATE_MEMBER_KEY_SECRET: secret } });
    contenders.push(...(await connectPaths(dataDir, serve.url, key)));

    const paths: McpPath[] = contenders.map((c) => ({ name: c.name, ms: [], answer: '' }));
    const started = Date.now();
    for (const c of contenders) for (let i = 0; i < options.warmup; i++) await timeCall(c, i);
    const perRound = Math.ceil(options.calls / options.rounds);
    for (let round = 0; round < options.rounds; round++) {
      if (round > 0 && Date.now() - started > options.boundMs) {
        notes.push(
          `mcp: stopped after ${round} of ${options.rounds} rounds (${paths[0]?.ms.length} calls per path), the ${options.boundMs / 1000} s bound`,
        );
        break;
      }
      for (const [k, c] of contenders.entries()) {
        const path = paths[k] as McpPath;
        for (let i = 0; i < perRound && path.ms.length < options.calls; i++) {
          const { ms, answer } = await timeCall(c, round * perRound + i);
          path.ms.push(ms);
          path.answer = answer;
        }
      }
    }
    const sessions = await measureLongSessions(dataDir, serve.url, key, options, notes);
    return { paths, sessions, notes };
  } finally {
    await Promise.all(contenders.map((c) => c.client.close().catch(() => undefined)));
    if (serve) {
      const exited = new Promise<void>((resolve) => serve?.child.once('exit', () => resolve()));
      serve.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function ms(n: number): string {
  return n.toFixed(3).padStart(9);
}

export async function runMcpSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  // `tollgate mcp` runs the bundle while it is fresh, as after `npm install`; else it would run through tsx.
  buildCliBundle();
  const { paths, sessions, notes } = await measureMcpPaths({
    calls: CALLS,
    warmup: WARMUP,
    rounds: ROUNDS,
    boundMs: BOUND_MS,
    sessionCalls: SESSION_CALLS,
  });
  const [direct] = paths as [McpPath];
  const mismatched: McpPath[] = paths.filter((p) => p.answer !== direct.answer);
  mismatched.push(...sessions.filter((p) => p.answer !== sessions[0]?.answer));
  if (mismatched.length > 0) throw new Error(`the paths answered differently: ${JSON.stringify(paths.map((p) => p.answer))}`);
  const p50 = median(direct.ms);
  const p99 = quantile(direct.ms, 0.99);
  const width = Math.max(...paths.map((p) => p.name.length));
  console.log(`\nmcp: one allowed call (read_order -> the recorder's read), sequential, in ms`);
  console.log(
    `${'path'.padEnd(width)}  ${'p50'.padStart(9)}  ${'p99'.padStart(9)}  ${'added p50'.padStart(9)}  ${'added p99'.padStart(9)}  calls`,
  );
  const figures: Figure[] = [];
  for (const p of paths) {
    const own50 = median(p.ms);
    const own99 = quantile(p.ms, 0.99);
    const added = p === direct ? ['', ''] : [ms(own50 - p50), ms(own99 - p99)];
    console.log(
      `${p.name.padEnd(width)}  ${ms(own50)}  ${ms(own99)}  ${(added[0] as string).padStart(9)}  ${(added[1] as string).padStart(9)}  ${p.ms.length}`,
    );
    // The table's median column is the p50; its p95 column the p95. The p99 and what the gateway adds are in the note.
    const note =
      p === direct
        ? `p99 ${own99.toFixed(3)} ms`
        : `p99 ${own99.toFixed(3)} ms; added p50 ${(own50 - p50).toFixed(3)}, p99 ${(own99 - p99).toFixed(3)} ms`;
    figures.push(figureOf('mcp', `mcp ${p.name} per call`, 'ms', p.ms, note));
    // What the gateway adds, one figure a percentile, for the targets (targets.ts).
    if (p !== direct) {
      figures.push(addedFigure(`mcp added p50: ${p.name}`, own50 - p50, p.ms.length, 'its p50 less the direct path’s'));
      figures.push(addedFigure(`mcp added p99: ${p.name}`, own99 - p99, p.ms.length, 'its p99 less the direct path’s'));
    }
  }
  figures.push(...longSessionFigures(sessions));
  notes.push(
    `mcp: ${WARMUP} warm-up calls per path, then ${direct.ms.length} sequential calls per path in ${ROUNDS} rounds taking turns; ` +
      'the Client in the bench process; the direct upstream, tollgate mcp and tollgate serve its child processes, each gateway starting its own upstream',
  );
  return { figures, notes };
}

/** One value as a figure (median and p95 alike): what a gateway adds at one percentile. */
function addedFigure(figure: string, value: number, runs: number, note: string): Figure {
  return { suite: 'mcp', figure, unit: 'ms', median: value, p95: value, runs, note };
}

/**
 * The long session's figures: each path's p50 over its last 100 calls over its p50 over its first 100 (1 when
 * its last calls cost what its first did), printed with both; and what each gateway adds over its last 100, once
 * every process on the path has run thousands of calls (the rounds' figures include their JIT's warming).
 */
function longSessionFigures(sessions: McpPath[]): Figure[] {
  const [direct] = sessions;
  if (!direct) return [];
  const lastOf = (p: McpPath) => median(p.ms.slice(-100));
  const width = Math.max(...sessions.map((p) => p.name.length));
  console.log(
    `\nmcp: one long session a path (${WARMUP} warm-up calls, then ${direct.ms.length} timed, turns of ${SESSION_TURN}), p50 in ms`,
  );
  console.log(`${'path'.padEnd(width)}  ${'first 100'.padStart(9)}  ${'last 100'.padStart(9)}  last / first  added, last 100`);
  return sessions.flatMap((p): Figure[] => {
    const first = median(p.ms.slice(0, 100));
    const last = lastOf(p);
    const ratio = last / first;
    const added = last - lastOf(direct);
    const addedText = p === direct ? '' : ms(added);
    console.log(`${p.name.padEnd(width)}  ${ms(first)}  ${ms(last)}  ${ratio.toFixed(2).padStart(12)}  ${addedText.padStart(15)}`);
    const figures: Figure[] = [
      {
        suite: 'mcp',
        figure: `mcp long session, last 100 / first 100 calls (p50): ${p.name}`,
        unit: '×',
        median: ratio,
        p95: ratio,
        runs: p.ms.length,
        note: `p50 first 100 ${first.toFixed(3)} ms, last 100 ${last.toFixed(3)} ms, of ${p.ms.length} calls`,
      },
    ];
    if (p !== direct) {
      figures.push(
        addedFigure(
          `mcp long session, added p50 over its last 100 calls: ${p.name}`,
          added,
          100,
          'warm: its p50 less the direct path’s, last 100 calls each',
        ),
      );
    }
    return figures;
  });
}
