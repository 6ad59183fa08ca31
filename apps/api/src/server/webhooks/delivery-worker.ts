// The delivery worker of one node (docs/webhooks.md, "Delivery"): off the request path, it leases due outbox rows
// (state/webhooks/model.ts's leaseDue: each row one node's at a time), sends each with a bounded concurrency
// (send.ts: checked URL, pinned address, timeout, bounded read), records every attempt with the row's next state
// (delivered, a retry at the next backoff with jitter, or failed once the schedule is spent), and sweeps requests
// that expired undecided into the outbox, after fanning out the transitions no node has (outbox.ts) and the denies
// written since its last tick (denies.ts). `serve` runs one;
// `mcp` does not (its transitions are fanned out all the same, and a serve node delivers them). It is the one reader
// of the subscriptions' signing secrets, which it opens with the member key secret (state/webhooks/sealed-secret.ts):
// serve holds that secret, and `mcp`, started without it (CustodialKeys.withoutSecret), could open none.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { NoSecretError, SecretMismatchError } from '../state/members/custodial-keys.ts';
import { LEASE_MS, nextAttemptAt, type OutboxRow, type SubscriptionRow } from '../state/webhooks/model.ts';
import { openWebhookSecret } from '../state/webhooks/sealed-secret.ts';
import { fanOutDenies } from './denies.ts';
import { type OutboundPolicy, outboundPolicyOf } from './outbound-url.ts';
import { fanOutTransitions, sweepExpired } from './outbox.ts';
import { type SendOutcome, sendOnce } from './send.ts';

export interface DeliveryWorkerOptions {
  /** This node's name in leases and attempts; a fresh one unless given. */
  node?: string;
  policy?: OutboundPolicy;
  /** Attempts under way at once (default 4). */
  concurrency?: number;
  /** How often due rows are looked for (default 1 s). */
  pollMs?: number;
  /** An attempt's bound (default 10 s), well inside the lease. */
  timeoutMs?: number;
  leaseMs?: number;
  /** [0, 1): spreads retries (Math.random unless given). */
  jitter?: () => number;
}

export class DeliveryWorker {
  readonly node: string;
  private readonly policy: OutboundPolicy;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly jitter: () => number;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> | undefined;
  private stopped = false;
  /** The expired requests this node has enqueued (outbox.ts, sweepExpired). */
  private readonly expirySeen = new Map<string, string>();
  /** The denies this node has enqueued that the cursor has not passed (denies.ts). */
  private readonly deniesSeen = new Map<string, number>();

  constructor(
    private readonly ctx: AppContext,
    options: DeliveryWorkerOptions = {},
  ) {
    // A worker that could open no secret would only fail every attempt: refused at once instead.
    if (!ctx.state.custodial.held)
      throw new NoSecretError('a webhook delivery worker needs the member key secret; tollgate serve holds it');
    this.node = options.node ?? `node-${randomUUID().slice(0, 8)}`;
    this.policy = options.policy ?? outboundPolicyOf();
    this.concurrency = options.concurrency ?? 4;
    this.pollMs = options.pollMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.jitter = options.jitter ?? Math.random;
  }

  /** Whether the last tick failed (a pause said once, and its end). */
  private paused = false;

  /** Polls until stopped; a tick's failure (a database away) is reported and the next tick tries again. */
  start(): this {
    const loop = () => {
      if (this.stopped) return;
      this.ticking = this.tick()
        .then(() => {
          if (this.paused) process.stderr.write('tollgate: webhook delivery resumed\n');
          this.paused = false;
        })
        .catch((err) => {
          // Said once a pause, not once a tick: a database away for a minute is one line, not sixty. The driver's
          // own words stay out (they read like a crash); its code says enough.
          if (!this.paused) process.stderr.write(`tollgate: webhook delivery paused (${faultOf(err)}); it tries again each second\n`);
          this.paused = true;
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.pollMs);
        });
    };
    this.timer = setTimeout(loop, 0);
    return this;
  }

  /** Stops polling and waits for the attempts under way (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
  }

  /** One round: fan out transitions and denies, sweep expiries, then lease and send what is due; answers the attempts made. */
  async tick(): Promise<number> {
    // The subscriptions read once a tick, for the three fan-outs.
    const subscriptions = await this.ctx.state.webhooks.list();
    await fanOutTransitions(this.ctx, subscriptions);
    await fanOutDenies(this.ctx, this.ctx.now(), this.deniesSeen, subscriptions);
    await sweepExpired(this.ctx, this.ctx.now(), this.expirySeen, subscriptions);
    let made = 0;
    for (;;) {
      const due = await this.ctx.state.webhooks.lease(this.node, this.ctx.now(), this.leaseMs, this.concurrency);
      if (due.length === 0) return made;
      await Promise.all(due.map((row) => this.attempt(row)));
      made += due.length;
      if (this.stopped) return made;
    }
  }

  private async attempt(row: OutboxRow): Promise<void> {
    const sub = await this.ctx.state.webhooks.find(row.subscription_id);
    const attempt = row.attempts + 1;
    const base = { outbox_id: row.id, subscription_id: row.subscription_id, attempt, node: this.node };
    if (!sub) {
      await this.ctx.state.webhooks.finish(
        {
          ...base,
          outcome: 'failed',
          http_status: null,
          latency_ms: 0,
          error: 'the subscription was removed',
          excerpt: null,
          at: this.ctx.now().toISOString(),
        },
        'failed',
        null,
      );
      return;
    }
    const outcome = await this.send(row, sub);
    const now = this.ctx.now();
    const next = outcome.ok ? null : nextAttemptAt(attempt, now, this.jitter());
    await this.ctx.state.webhooks.finish(
      {
        ...base,
        outcome: outcome.ok ? 'delivered' : 'failed',
        http_status: outcome.status,
        latency_ms: outcome.latencyMs,
        error: outcome.error,
        excerpt: outcome.excerpt,
        at: now.toISOString(),
      },
      outcome.ok ? 'delivered' : next === null ? 'failed' : 'pending',
      next,
    );
  }

  /**
   * Sends `row` signed with the subscription's secret, opened here, just before it signs. A secret this node's member
   * key secret does not open is a failed attempt naming the code, nothing sent and nothing signed; it is retried on
   * the schedule, so a node given the right secret can deliver it.
   */
  private async send(row: OutboxRow, sub: SubscriptionRow): Promise<SendOutcome> {
    let secret: string;
    try {
      secret = openWebhookSecret(sub.secret, this.ctx.state.custodial, sub.id);
    } catch (err) {
      if (!(err instanceof SecretMismatchError || err instanceof NoSecretError)) throw err;
      return { ok: false, status: null, latencyMs: 0, error: `${err.code}: ${err.message}`, excerpt: null };
    }
    // The signature's time is the wall clock's: a receiver checks it against its own (Standard Webhooks' tolerance).
    return sendOnce({ id: row.id, body: row.body, secret, url: sub.url }, this.policy, new Date(), this.timeoutMs);
  }
}

/** A failure named by its code (ECONNRESET, a SQLSTATE) or kind, never by the driver's message. */
function faultOf(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  return err instanceof Error ? err.name : 'unknown error';
}
