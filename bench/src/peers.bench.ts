// The peers suite: the refunds stream (100k seeded calls, streams.ts) decided by the compiled engine,
// the plain reference evaluator, Cedar (cedar-wasm, policies preparsed once and handed over per call)
// and Cerbos (its HTTP check endpoint, calls in batches), in one process run, with a checksum over every
// decision of each so agreement is proved, not assumed. Ratios are per run, each run interleaving all.
import { type CompiledTool, compilePolicy } from '@tollgate/engine/policy';
import { type CedarRequest, createCedarPeer, timeCedarPass, toCedarRequest } from './cedar-peer.ts';
import { cerbosBinary, startCerbos } from './cerbos-peer.ts';
import { decisionChecksum, type Figure, figureOf, MIN_RUNS, ratios, timePass } from './measure.ts';
import { peerAmount } from './peer-amount.ts';
import { type ReferenceDocument, referenceDecide } from './reference-evaluator.ts';
import { type Call, compileCallTools, REFUNDS_POLICY, refundsStream } from './streams.ts';

const COUNT = 100_000;
/** Cedar decides the whole stream once for its checksum; its timed runs take this many calls from the start. */
const CEDAR_SLICE = 10_000;
/** Handing Cedar the policy text per call is slow: its checksum covers this prefix, its timed runs a fifth of it. */
const PER_CALL_CHECK = 5_000;
const PER_CALL_SLICE = 1_000;
/** Cerbos takes this many calls (two resources each) per check request, several requests in flight. */
const CERBOS_BATCH = 25;
const CERBOS_IN_FLIGHT = 4;
const CERBOS_SLICE = 20_000;

interface Contender {
  name: string;
  decisions: string[];
  checksum: string;
  /** How many calls the checksum covers (a prefix of the stream when less than COUNT). */
  covers: number;
  perSecond: number[];
  batchMicros: number[];
  what: string;
}

async function decideWithCerbos(decide: (calls: Call[], firstId: number) => Promise<string[]>, calls: Call[]): Promise<string[]> {
  const out: string[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const start = next;
      next += CERBOS_BATCH;
      if (start >= calls.length) return;
      const d = await decide(calls.slice(start, start + CERBOS_BATCH), start);
      for (let i = 0; i < d.length; i++) out[start + i] = d[i] as string;
    }
  };
  await Promise.all(Array.from({ length: CERBOS_IN_FLIGHT }, worker));
  return out;
}

export async function runPeersSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  const notes: string[] = [];
  const figures: Figure[] = [];
  const calls = refundsStream(COUNT);
  const compiled = compilePolicy(REFUNDS_POLICY);
  if (!compiled.ok) throw new Error('the refunds policy does not compile');
  const policy = compiled.policy;
  const tools = compileCallTools(calls);
  const cedar = createCedarPeer();
  const requests: CedarRequest[] = [];
  const resources: string[] = [];
  for (const c of calls) {
    requests.push(toCedarRequest(c));
    resources.push(c.tool.name);
  }

  let harnessDecided = 0;
  let cut = 0;
  for (const c of calls) {
    const a = peerAmount(c.tool, c.args);
    if (a.kind === 'unreadable') harnessDecided++;
    else if (a.kind === 'amount' && a.cut) cut++;
  }
  notes.push(
    `peers: ${harnessDecided} of ${COUNT} calls carry an amount policy@1 cannot read (INVALID_AMOUNT): the harness denies them for Cedar and Cerbos, which cannot state them; ` +
      `${cut} readable amounts beyond four fractional digits or 10 billion reach the peers cut, with the cut flag (bench/src/peer-amount.ts)`,
  );

  const engineOne = (i: number) => policy.decide(tools[i] as CompiledTool, (calls[i] as Call).args).decision;
  const referenceOne = (i: number) =>
    referenceDecide(REFUNDS_POLICY as ReferenceDocument, (calls[i] as Call).tool, (calls[i] as Call).args).decision;
  const cedarLoadedOne = (i: number) => cedar.decideLoaded(requests[i] as CedarRequest, resources[i] as string);
  const cedarPerCallOne = (i: number) => cedar.decidePerCall(requests[i] as CedarRequest, resources[i] as string);

  // The checksum passes double as the warm-up.
  // Plain loops around the wasm calls: Node 20.20's V8 once crashed deoptimising inside an array builtin here.
  const decideAll = (n: number, one: (i: number) => string) => {
    const out: string[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = one(i);
    return out;
  };
  const contenders: Contender[] = [];
  const add = (name: string, decisions: string[], what: string): Contender => {
    const c: Contender = {
      name,
      decisions,
      checksum: decisionChecksum(decisions),
      covers: decisions.length,
      perSecond: [],
      batchMicros: [],
      what,
    };
    contenders.push(c);
    return c;
  };
  const engine = add('engine (compiled)', decideAll(COUNT, engineOne), `all ${COUNT} calls a run`);
  const reference = add('reference evaluator', decideAll(COUNT, referenceOne), `all ${COUNT} calls a run`);
  const cedarLoaded = add('Cedar, policies loaded once', decideAll(COUNT, cedarLoadedOne), `the first ${CEDAR_SLICE} calls a run`);
  const cedarPerCall = add(
    'Cedar, policies per call',
    decideAll(PER_CALL_CHECK, cedarPerCallOne),
    `the first ${PER_CALL_SLICE} calls a run`,
  );

  for (let run = 0; run < MIN_RUNS; run++) {
    const passes = [
      [engine, timePass(COUNT, engineOne)],
      [reference, timePass(COUNT, referenceOne)],
      [cedarLoaded, timeCedarPass(cedar, requests, resources, CEDAR_SLICE, false, 1000)],
      [cedarPerCall, timeCedarPass(cedar, requests, resources, PER_CALL_SLICE, true, 100)],
    ] as const;
    for (const [c, r] of passes) {
      c.perSecond.push(r.perSecond);
      c.batchMicros.push(...r.batchMicros);
    }
  }

  // Cerbos last: its HTTP runs after the in-process ones (Node 20.20's V8 crashed deoptimising in the
  // wasm loop when the fetch-heavy Cerbos phase came first).
  const binary = cerbosBinary();
  if ('missing' in binary) notes.push(`peers: Cerbos not measurable here: ${binary.missing}`);
  else {
    const server = await startCerbos();
    try {
      const c = add(
        `Cerbos ${server.version} over HTTP`,
        await decideWithCerbos((batch, first) => server.decide(batch, first), calls),
        `the first ${CERBOS_SLICE} calls a run, ${CERBOS_BATCH} calls a check request, ${CERBOS_IN_FLIGHT} in flight`,
      );
      const slice = calls.slice(0, CERBOS_SLICE);
      for (let run = 0; run < MIN_RUNS; run++) {
        const start = process.hrtime.bigint();
        await decideWithCerbos((batch, first) => server.decide(batch, first), slice);
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        c.perSecond.push(CERBOS_SLICE / seconds);
        c.batchMicros.push((seconds * 1e6) / CERBOS_SLICE);
      }
    } finally {
      await server.stop();
    }
  }

  // Agreement: every contender against the engine, over the calls its checksum covers.
  let mismatches = 0;
  for (const c of contenders) {
    const engineSum = decisionChecksum(engine.decisions.slice(0, c.covers));
    let differing = 0;
    for (let i = 0; i < c.covers; i++) if (c.decisions[i] !== engine.decisions[i]) differing++;
    const agrees = engineSum === c.checksum && differing === 0;
    if (!agrees) mismatches++;
    const counts = new Map<string, number>();
    for (const d of c.decisions) counts.set(d, (counts.get(d) ?? 0) + 1);
    const tally = [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
    notes.push(
      agrees
        ? `peers: ${c.name}: checksum ${c.checksum} over ${c.covers} calls = the engine's (${tally})`
        : `peers: !!! MISMATCH !!! ${c.name}: checksum ${c.checksum} over ${c.covers} calls, the engine's ${engineSum}: ${differing} calls decided differently`,
    );
    const mark = agrees
      ? `checksum ${c.checksum}/${c.covers}`
      : `MISMATCH: ${differing} differ (checksum ${c.checksum}, engine ${engineSum})`;
    figures.push(figureOf('peers', `peers refunds: ${c.name} decisions/s`, 'decisions/s', c.perSecond, `${mark}; ${c.what}`));
    figures.push(figureOf('peers', `peers refunds: ${c.name} per decision`, 'µs', c.batchMicros));
  }
  for (const c of contenders) {
    if (c === engine) continue;
    figures.push(
      figureOf('peers', `peers refunds: engine / ${c.name}`, '×', ratios(engine.perSecond, c.perSecond), 'decisions/s, per run'),
    );
  }
  if (mismatches > 0) notes.push(`peers: !!! ${mismatches} deciders disagree with the engine: the ratios above compare unlike work !!!`);
  return { figures, notes };
}
