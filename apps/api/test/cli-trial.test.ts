// `tollgate trial start|show|stop` as real processes (the bin, spawned) against a real server over loopback HTTP: a
// scoped trial started, its counts moving with the demo agent's calls, every differing call listed across the
// differences route's pages, stopped; the server's refusals passed on (exit 4), a server that cannot be reached
// (exit 3), no key and bad flags (exit 2); and a property: exactly the plain decimals in (0, 1] start a trial.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, withEnv } from './cli-harness.ts';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { agentKey, type LooseJson, okJson, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const REFUNDS = 'policies/refunds.policy.json';
const TRIAL = `/v1/trials/${encodeURIComponent(REFUNDS)}`;
/** One more differing call than the largest page of the differences route (routes/trials.ts) holds. */
const MORE_THAN_A_PAGE = 501;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bin as a child process, with no TOLLGATE_ variable of this process: only the key given, if one is. */
function tollgate(key: string | undefined, ...args: string[]): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TOLLGATE_')));
  if (key !== undefined) env.TOLLGATE_API_KEY = key;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The refunds policy with orders.search no longer allowed: the candidate differs on search_orders alone. */
function withoutSearch(): string {
  const doc = JSON.parse(REFUNDS_POLICY_TEXT);
  doc.rules[0].actions = ['orders.read'];
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A stored version of the refunds policy that does not run: the candidate a trial tries. */
async function storedCandidate(s: TestServer): Promise<number> {
  const saved = await s.ctx.store.save({
    id: REFUNDS,
    text: withoutSearch(),
    author: { kind: 'person', label: 'test' },
    reason: 'search is no longer allowed',
    activate: false,
  });
  return saved.sequence;
}

function gateCall(s: TestServer, tool: string, agent = 'support-bot', args: Record<string, unknown> = { id: '7' }) {
  return s.call('POST', `/v1/agents/${agent}/calls`, { key: agentKey(s, agent), body: { tool, arguments: args } });
}

/** Reads the trial until `until` holds of it (the counts are written after each call's answer). */
async function trialWhen(s: TestServer, until: (trial: LooseJson) => boolean): Promise<LooseJson> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const trial = await okJson(s.call('GET', TRIAL, { key: s.key('viewer') }));
    if (until(trial)) return trial;
    if (Date.now() > deadline) throw new Error(`the trial never got there: ${JSON.stringify(trial)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A port where nothing listens any more. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

let s: TestServer;
let candidate: number;
beforeAll(async () => {
  s = await startServer();
  candidate = await storedCandidate(s);
});
afterAll(async () => {
  await s.stop();
});

type Who = 'owner' | 'admin' | 'viewer';
/** `tollgate trial ARGS` spawned as `who`, against the test server. */
const trialAs = (who: Who, ...args: string[]) => tollgate(s.key(who), 'trial', ...args, '--server', s.url);
/** The arguments of `trial start REFUNDS --version N --sample-rate RATE ...`. */
const startArgs = (version: number, rate: string, ...more: string[]) => [
  'start',
  REFUNDS,
  ...['--version', String(version), '--sample-rate', rate],
  ...more,
];

describe('tollgate trial start, show and stop against a running server', () => {
  it('starts a scoped trial, shows its counts move, lists every differing call across pages, and stops it', async () => {
    const none = await trialAs('viewer', 'show', REFUNDS);
    expect(none).toEqual({ code: 0, stdout: `${REFUNDS} has no trial\n`, stderr: '' });

    // Half of support-bot's search_orders calls: out of scope, read_order and refunds-bot's calls are not counted.
    const scoped = await trialAs(
      'owner',
      ...startArgs(candidate, '0.5', '--agent', 'support-bot', '--tool', 'search_orders', '--max-samples', '100000'),
    );
    expect(scoped.code, scoped.stderr).toBe(0);
    const started = await okJson(s.call('GET', TRIAL, { key: s.key('viewer') }));
    expect(scoped.stdout).toBe(
      `${REFUNDS}: trial of version ${candidate}, running\n` +
        '  scope: agent support-bot, tool search_orders, sample rate 0.5, at most 100000 samples\n' +
        `  since ${started.started_at}: calls 0, sampled 0, agreed 0, differed 0\n`,
    );
    for (let i = 0; i < 4; i++) {
      await gateCall(s, 'search_orders');
      await gateCall(s, 'read_order');
      await gateCall(s, 'search_orders', 'refunds-bot');
    }
    await trialWhen(s, (t) => t.calls === 4 && t.sampled === 2);
    const moved = await trialAs('viewer', 'show', REFUNDS, '--json');
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({
      document: REFUNDS,
      candidate,
      sample_rate: 0.5,
      agent: 'support-bot',
      tool: 'search_orders',
      ends_at: null,
      max_samples: 100000,
      calls: 4,
      sampled: 2,
      agreed: 0,
      differed: 2,
      running: true,
      ended: null,
    });

    // Started again on every call of the tool: more differing calls than one page of the differences route.
    const everyCall = await trialAs('owner', ...startArgs(candidate, '1', '--tool', 'search_orders', '--json'));
    expect(everyCall.code, everyCall.stderr).toBe(0);
    expect(JSON.parse(everyCall.stdout)).toMatchObject({ sample_rate: 1, agent: null, tool: 'search_orders', calls: 0 });
    const made: string[] = [];
    for (let i = 0; i < MORE_THAN_A_PAGE; i += 25) {
      const batch = Array.from({ length: Math.min(25, MORE_THAN_A_PAGE - i) }, (_, j) =>
        gateCall(s, 'search_orders', 'support-bot', { q: `order-${i + j}` }),
      );
      for (const answer of await Promise.all(batch)) made.push(answer.json.call_id);
    }
    await trialWhen(s, (t) => t.differed === MORE_THAN_A_PAGE);

    const listed = await trialAs('viewer', 'show', REFUNDS, '--differences', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const { trial, differences } = JSON.parse(listed.stdout);
    expect(trial).toMatchObject({ calls: MORE_THAN_A_PAGE, sampled: MORE_THAN_A_PAGE, differed: MORE_THAN_A_PAGE, running: true });
    expect(differences).toHaveLength(MORE_THAN_A_PAGE);
    expect(differences.map((d: LooseJson) => d.call_id).sort()).toEqual([...made].sort());
    expect(differences[0]).toMatchObject({ running: { decision: 'allow' }, candidate: { decision: 'deny' } });
    expect(differences[0].arguments_digest).toMatch(/\S/);

    const lines = await trialAs('viewer', 'show', REFUNDS, '--differences');
    expect(lines.code, lines.stderr).toBe(0);
    const out = lines.stdout.split('\n');
    expect(out[3]).toBe(`${MORE_THAN_A_PAGE} differing calls, newest first:`);
    expect(out.slice(4, -1)).toHaveLength(MORE_THAN_A_PAGE);
    expect(out[4]).toMatch(/^ {2}\S+ {2}running: allow by \S+; candidate: deny/);

    const stopped = await trialAs('admin', 'stop', REFUNDS);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout.split('\n')[0]).toBe(`${REFUNDS}: trial of version ${candidate}, stopped`);
    expect(await okJson(s.call('GET', TRIAL, { key: s.key('viewer') }))).toMatchObject({ running: false, ended: 'stopped' });
  }, 120_000);

  it('passes on the server’s refusals with their codes (exit 4), and says when a policy has no trial (exit 0)', async () => {
    const runningVersion = await trialAs('owner', ...startArgs(1, '1'));
    expect(runningVersion.code).toBe(4);
    expect(runningVersion.stderr).toMatch(/^INVALID_SAVE: .*already running.*\(the server answered 400\)\n$/);

    const viewer = await trialAs('viewer', ...startArgs(candidate, '1', '--json'));
    expect(viewer.code).toBe(4);
    expect(viewer.stderr).toMatch(/^ROLE_REQUIRED: .*\(the server answered 403\)\n$/);
    expect(JSON.parse(viewer.stdout).errors[0]).toMatchObject({ code: 'ROLE_REQUIRED' });

    const past = await trialAs('owner', ...startArgs(candidate, '1', '--ends-at', '2020-01-01T00:00:00Z'));
    expect([past.code, past.stderr.split(':')[0]]).toEqual([4, 'INVALID_SAVE']);

    const absent = 'policies/absent.policy.json';
    expect(await trialAs('viewer', 'show', absent)).toEqual({ code: 0, stdout: `${absent} has no trial\n`, stderr: '' });
    expect(await trialAs('viewer', 'show', absent, '--json')).toEqual({ code: 0, stdout: 'null\n', stderr: '' });
    const stopAbsent = await trialAs('owner', 'stop', absent);
    expect([stopAbsent.code, stopAbsent.stderr]).toEqual([4, `NOT_FOUND: ${absent} has no trial (the server answered 404)\n`]);
    const notAPolicy = await trialAs('viewer', 'show', 'agents/support-bot.agent.yaml', '--differences');
    expect([notAPolicy.code, notAPolicy.stderr.split(':')[0]]).toEqual([4, 'NOT_A_POLICY']);
  });

  it('says a server that refuses connections cannot be reached (UNREACHABLE, exit 3)', async () => {
    const url = await closedPort();
    for (const args of [
      ['show', REFUNDS],
      ['stop', REFUNDS],
      ['start', REFUNDS, '--version', '2', '--sample-rate', '1'],
    ]) {
      const run = await tollgate(s.key('owner'), 'trial', ...args, '--server', url);
      expect(run, args.join(' ')).toEqual({
        code: 3,
        stdout: '',
        stderr: `UNREACHABLE: the server at ${url} cannot be reached: ECONNREFUSED\n`,
      });
    }
  });

  it('refuses bad flags before any request, and a missing key (exit 2)', async () => {
    // A closed port: a flag refused first exits 2, never 3.
    const url = await closedPort();
    const start = (...flags: string[]) => tollgate(s.key('owner'), 'trial', 'start', REFUNDS, ...flags, '--server', url);
    for (const rate of ['1.5', '0', '0.0', '.5', '1.', '1e-1', '+0.5', '0.5%', '0,5', ' 0.5', '1.00000000000000000001', '']) {
      const run = await start('--version', '2', '--sample-rate', rate);
      expect([run.code, run.stdout], rate).toEqual([2, '']);
      expect(run.stderr, rate).toMatch(
        /^tollgate trial start: --sample-rate is a plain decimal above 0 and at most 1 .*\nusage: tollgate trial start /,
      );
    }
    for (const [flags, reason] of [
      [['--sample-rate', '1'], 'missing --version N (the stored version to try)'],
      [['--version', '0', '--sample-rate', '1'], '--version is a whole number from 1, not "0"'],
      [['--version', '2.0', '--sample-rate', '1'], '--version is a whole number from 1, not "2.0"'],
      [['--version', '2'], 'missing --sample-rate RATE (a share above 0 and at most 1, such as 0.25)'],
      [['--version', '2', '--sample-rate', '1', '--max-samples', '1e3'], '--max-samples is a whole number from 1, not "1e3"'],
    ] as const) {
      const run = await start(...flags);
      expect([run.code, run.stderr.split('\n')[0]], reason).toEqual([2, `tollgate trial start: ${reason}`]);
    }
    const noKey = await tollgate(undefined, 'trial', 'show', REFUNDS, '--server', s.url);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^API_KEY_MISSING: set TOLLGATE_API_KEY/);
  });
});

/** The oracle: a plain decimal (digits, or digits, a point and digits) of at most 32 characters, in (0, 1] exactly. */
function inRange(text: string): boolean {
  const plain = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (plain === null || text.length > 32) return false;
  const fraction = plain[2] ?? '';
  const scaled = BigInt(`${plain[1]}${fraction}`);
  return scaled > 0n && scaled <= 10n ** BigInt(fraction.length);
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const zeros = (min: number, max: number) => fc.integer({ min, max }).map((n) => '0'.repeat(n));
/** A fraction of any digits, of zeros alone (0.000, 1.000), or of zeros then a 1 (the least rates, 1.0001). */
const fraction = fc.oneof(
  digits(1, 34),
  zeros(1, 34),
  zeros(0, 33).map((z) => `${z}1`),
);
/** Plain decimals on either side of each bound: a whole part of 0 or 1 (leading zeros too) or any, and any fraction. */
const plainDecimal = fc
  .tuple(fc.oneof(fc.constantFrom('0', '1', '00', '01', '2', '10'), digits(1, 4)), fc.option(fraction, { nil: undefined }))
  .map(([whole, f]) => (f === undefined ? whole : `${whole}.${f}`));
/** Plain decimals mostly in range: 0. and a fraction, or 1 with or without a fraction of zeros. */
const nearlyInRange = fc.oneof(
  fc.tuple(fc.constantFrom('0', '00'), fraction).map(([whole, f]) => `${whole}.${f}`),
  fc
    .tuple(fc.constantFrom('1', '01'), fc.option(zeros(1, 34), { nil: undefined }))
    .map(([whole, f]) => (f === undefined ? whole : `${whole}.${f}`)),
);
/** A plain decimal with a character a plain decimal never has put somewhere in it. */
const nearMiss = fc
  .tuple(plainDecimal, fc.constantFrom('+', '-', ' ', '.', 'e', 'E', '%', ',', '_', 'x', '\n', '\u0660'), fc.nat())
  .map(([text, c, at]) => {
    const i = at % (text.length + 1);
    return `${text.slice(0, i)}${c}${text.slice(i)}`;
  });
const rateText = fc.oneof(
  { arbitrary: nearlyInRange, weight: 3 },
  { arbitrary: plainDecimal, weight: 2 },
  { arbitrary: nearMiss, weight: 2 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);

describe('--sample-rate (property)', () => {
  it('starts a trial for exactly the plain decimals in (0, 1], at the rate written, and refuses every other text (exit 2)', async () => {
    const server = await startServer();
    try {
      const version = await storedCandidate(server);
      const examples = ['1', '0.5', '1.000', '0001', '0.000000000000000000000000000001', '1.00000000000000000001', '0', '.5'];
      await withEnv('TOLLGATE_API_KEY', server.key('owner'), () =>
        fc.assert(
          fc.asyncProperty(rateText, async (text) => {
            const run = await runCli(
              'trial',
              'start',
              REFUNDS,
              '--version',
              String(version),
              `--sample-rate=${text}`,
              '--json',
              '--server',
              server.url,
            );
            if (inRange(text)) {
              expect(run.code, `${JSON.stringify(text)}: ${run.stderr}`).toBe(0);
              expect(JSON.parse(run.stdout).sample_rate).toBe(Number(text));
            } else {
              expect(run.code, JSON.stringify(text)).toBe(2);
              expect(run.stdout).toBe('');
              expect(run.stderr).toMatch(/^tollgate trial start: --sample-rate is a plain decimal above 0 and at most 1 /);
            }
          }),
          { numRuns: 200, examples: examples.map((e) => [e]) },
        ),
      );
    } finally {
      await server.stop();
    }
  }, 60_000);
});
