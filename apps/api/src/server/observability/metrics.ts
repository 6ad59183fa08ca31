// The server's Prometheus metrics (docs/deploy.md, "Metrics and traces"): one registry per app, so two apps in one
// process never share a family, carried on the AppContext (context.ts) and fed from the one place each thing is
// decided (gate/decide-agent-call.ts, gate/claim-held-call.ts, mcp/). Labels are closed sets only (outcomes, codes
// from packages/engine/src/codes/, `via`): never an argument, a key, an agent's or a tool's name.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { StateObservation } from '../state/state-store.ts';

/** How a held call's wait through the MCP gateway ended (mcp/wait-approval.ts). */
export type HeldWaitOutcome = 'approved' | 'denied' | 'expired' | 'cancelled' | 'timed_out';
/** How a claim ended: claimed, or the refusal's reason (state/approvals/model.ts, ClaimRefusal). */
export type ClaimOutcomeLabel =
  | 'claimed'
  | 'not_found'
  | 'not_approved'
  | 'already_claimed'
  | 'arguments_mismatch'
  | 'expired'
  | 'unsigned';
/** How an upstream call ended: its result (the tool's own error included), or the gateway's code for its failure. */
export type UpstreamOutcome = 'ok' | 'tool_error' | 'failed';

export interface Metrics {
  readonly registry: Registry;
  /** One decided call: its decision, its gate code (`none` for none), how it came, and the seconds it took. */
  decided(outcome: string, code: string | null, via: string, seconds: number): void;
  /** A call compared with the rule files under shadow, and how many decided differently. */
  shadowed(differences: number): void;
  /** A call a candidate under trial decided again, and whether its verdict differed. */
  trialled(differed: boolean): void;
  heldWait(outcome: HeldWaitOutcome, seconds: number): void;
  claimed(outcome: ClaimOutcomeLabel): void;
  upstreamCall(outcome: UpstreamOutcome, seconds: number): void;
  /** Counts open MCP sessions at scrape; each /mcp route adds its own. */
  watchMcpSessions(count: () => number): void;
}

/** What the metrics read at scrape: the state's counts (state-store.ts, observe) and the clock. */
export interface MetricsSources {
  observe?: (now: Date) => Promise<StateObservation>;
  now?: () => Date;
  /** Node's own metrics (event-loop delay, memory, handles); on unless false (tests that count families). */
  defaults?: boolean;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const WAIT_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800];

/**
 * A fresh registry with every family, its gauges read from `sources` at scrape.
 *
 * @example
 * const metrics = createMetrics({ observe: (now) => state.observe(now) });
 * metrics.decided('allow', null, 'http', 0.0004);
 * await metrics.registry.metrics(); // the Prometheus text
 */
export function createMetrics(sources: MetricsSources = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (sources.defaults !== false) collectDefaultMetrics({ register: registry, prefix: '' });
  const decisions = new Counter({
    name: 'tollgate_decisions_total',
    help: 'Calls decided by the gate, by decision, gate code (none when none) and how the call came (http, mcp).',
    labelNames: ['outcome', 'code', 'via'] as const,
    registers,
  });
  const gateSeconds = new Histogram({
    name: 'tollgate_gate_duration_seconds',
    help: 'Seconds from a call reaching the gate to its decision recorded, by how the call came.',
    labelNames: ['via'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const shadowCalls = new Counter({ name: 'tollgate_shadow_calls_total', help: 'Calls compared with rule files under shadow.', registers });
  const shadowDiffs = new Counter({
    name: 'tollgate_shadow_differences_total',
    help: 'Differences rule files under shadow found against the running ones.',
    registers,
  });
  const trialCalls = new Counter({ name: 'tollgate_trial_calls_total', help: 'Calls a candidate under trial decided again.', registers });
  const trialDiffs = new Counter({
    name: 'tollgate_trial_differences_total',
    help: 'Calls a candidate under trial decided differently from the running version.',
    registers,
  });
  const waits = new Counter({
    name: 'tollgate_held_waits_total',
    help: "Held calls' waits for a person through the MCP gateway, by how they ended.",
    labelNames: ['outcome'] as const,
    registers,
  });
  const waitSeconds = new Histogram({
    name: 'tollgate_held_wait_duration_seconds',
    help: 'Seconds a held call waited for a person through the MCP gateway.',
    buckets: WAIT_BUCKETS,
    registers,
  });
  const claims = new Counter({
    name: 'tollgate_claims_total',
    help: 'Claims of held calls (the claim route and the MCP gateway), by outcome: claimed or the refusal.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const upstream = new Counter({
    name: 'tollgate_upstream_calls_total',
    help: "Calls forwarded to MCP upstreams, by outcome: ok, tool_error (the tool's own error result) or failed.",
    labelNames: ['outcome'] as const,
    registers,
  });
  const upstreamSeconds = new Histogram({
    name: 'tollgate_upstream_call_duration_seconds',
    help: 'Seconds an MCP upstream took to answer a forwarded call.',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sessionCounts: (() => number)[] = [];
  new Gauge({
    name: 'tollgate_mcp_sessions',
    help: 'MCP sessions open at /mcp.',
    registers,
    collect() {
      this.set(sessionCounts.reduce((sum, count) => sum + count(), 0));
    },
  });
  stateGauges(registers, sources);
  return {
    registry,
    decided(outcome, code, via, seconds) {
      decisions.inc({ outcome, code: code ?? 'none', via });
      gateSeconds.observe({ via }, seconds);
    },
    shadowed(differences) {
      shadowCalls.inc();
      if (differences > 0) shadowDiffs.inc(differences);
    },
    trialled(differed) {
      trialCalls.inc();
      if (differed) trialDiffs.inc();
    },
    heldWait(outcome, seconds) {
      waits.inc({ outcome });
      waitSeconds.observe(seconds);
    },
    claimed: (outcome) => claims.inc({ outcome }),
    upstreamCall(outcome, seconds) {
      upstream.inc({ outcome });
      upstreamSeconds.observe(seconds);
    },
    watchMcpSessions: (count) => {
      sessionCounts.push(count);
    },
  };
}

/** The gauges read from the state at scrape, one read shared by every gauge of a scrape. */
function stateGauges(registers: Registry[], sources: MetricsSources): void {
  const now = sources.now ?? (() => new Date());
  let reading: Promise<StateObservation | undefined> | undefined;
  // One state read per scrape: prom-client collects every family at once, so the gauges share the read in flight,
  // and the next scrape reads again.
  const read = () => {
    if (reading) return reading;
    const observed = sources.observe ? sources.observe(now()).catch(() => undefined) : Promise.resolve(undefined);
    reading = observed.finally(() => {
      reading = undefined;
    });
    return reading;
  };
  const gauge = (name: string, help: string, value: (o: StateObservation, at: Date) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const observed = await read();
        const v = observed === undefined ? undefined : value(observed, now());
        this.set(v ?? 0);
      },
    });
  gauge('tollgate_approvals_pending', 'Approval requests pending and not expired.', (o) => o.pendingApprovals.count);
  gauge('tollgate_approvals_oldest_pending_age_seconds', 'Age of the oldest pending approval request (0 when none).', (o, at) =>
    o.pendingApprovals.oldestCreatedAt === null ? 0 : Math.max(0, (at.getTime() - Date.parse(o.pendingApprovals.oldestCreatedAt)) / 1000),
  );
  gauge('tollgate_decision_log_queued', 'Decisions queued and not yet written to the decision log.', (o) => o.decisionsQueued);
  gauge('tollgate_decision_log_lag_seconds', 'Age of the oldest decision not yet written to the decision log (0 when none).', (o, at) =>
    o.oldestQueuedAt === null ? 0 : Math.max(0, (at.getTime() - Date.parse(o.oldestQueuedAt)) / 1000),
  );
  gauge('tollgate_db_pool_connections', 'PostgreSQL pool connections open (0 on SQLite).', (o) => o.pool?.total);
  gauge('tollgate_db_pool_idle_connections', 'PostgreSQL pool connections idle (0 on SQLite).', (o) => o.pool?.idle);
  new Counter({
    name: 'tollgate_db_pool_errors_total',
    help: 'Errors the PostgreSQL pool reported on its connections since the server started (0 on SQLite).',
    registers,
    async collect() {
      const observed = await read();
      this.reset();
      this.inc(observed?.pool?.errors ?? 0);
    },
  });
  gauge('tollgate_db_pool_waiting_clients', 'Callers waiting for a PostgreSQL pool connection (0 on SQLite).', (o) => o.pool?.waiting);
}
