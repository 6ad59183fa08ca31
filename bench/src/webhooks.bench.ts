// The webhooks suite: a slow receiver never slows the gate (docs/webhooks.md). Held calls (a 500 USD refund, each one
// an approval request and a delivery) are decided over real HTTP at c=16: with no subscription, then with every held
// call delivered by a running delivery worker to a receiver on loopback that answers at once, then to one that
// answers after 5 s. Fast against none is what telling costs (an outbox row a held call); slow against fast is what a
// slow receiver costs the gate, which should be nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryWorker } from '../../apps/api/src/server/webhooks/delivery-worker.ts';
import { startServer } from '../../apps/api/test/server-harness.ts';
import { startLoadGenerator } from './load-generator.ts';
import { type Figure, figureOf, MIN_RUNS, ratios } from './measure.ts';

const CONNECTIONS = 16;
const SECONDS = 2;
const RECEIVER_DELAY_MS = 5_000;

/** A receiver that answers 200 after `delayMs` (0: at once), counting what it was sent. */
async function slowReceiver(delayMs: number): Promise<{ url: string; received(): number; stop(): Promise<void> }> {
  let received = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    req.resume();
    received++;
    const timer = setTimeout(() => {
      timers.delete(timer);
      res.writeHead(200).end('thanks');
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    async stop() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

export async function runWebhooksSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP = '1';
  process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE = '1';
  const server = await startServer();
  const receiver = await slowReceiver(RECEIVER_DELAY_MS);
  const fast = await slowReceiver(0);
  const generator = await startLoadGenerator();
  let worker: DeliveryWorker | undefined;
  try {
    const held = {
      url: `${server.url}/v1/agents/support-bot/calls`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key('agent')}` },
      body: JSON.stringify({ tool: 'issue_refund', arguments: { amount: '500', order: 'B-1' } }),
      connections: CONNECTIONS,
      duration: SECONDS,
      maxOverallRequests: 200_000,
    };
    const probe = await server.call('POST', '/v1/agents/support-bot/calls', { key: server.key('agent'), body: JSON.parse(held.body) });
    if (probe.json.decision !== 'require_approval') throw new Error(`the bench's call is not held: ${probe.text}`);
    const measure = async () => {
      const r = await generator.load(held);
      return { perSecond: r.requests.average, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts };
    };
    await measure(); // warm-up, uncounted
    const without = [];
    for (let i = 0; i < MIN_RUNS; i++) without.push(await measure());

    const subscribe = async (url: string) => {
      const r = await server.call('POST', '/v1/webhooks', { key: server.key('owner'), body: { url, events: ['approval.pending'] } });
      if (r.status !== 201) throw new Error(`subscribing the receiver failed: ${r.text}`);
      return r.json.id as string;
    };
    worker = new DeliveryWorker(server.ctx, { node: 'bench', policy: { allowHttp: true, allowPrivate: true } }).start();
    const fastId = await subscribe(fast.url);
    const withFast = [];
    for (let i = 0; i < MIN_RUNS; i++) withFast.push(await measure());
    await server.call('DELETE', `/v1/webhooks/${fastId}`, { key: server.key('owner') });
    await subscribe(receiver.url);
    const withSlow = [];
    for (let i = 0; i < MIN_RUNS; i++) withSlow.push(await measure());

    const at = `webhooks held call c=${CONNECTIONS}`;
    const figure = (what: string, unit: string, values: number[], note?: string) =>
      figureOf('webhooks', `${at} ${what}`, unit, values, note);
    const perSecond = (runs: { perSecond: number }[]) => runs.map((r) => r.perSecond);
    const figures: Figure[] = [
      figure(
        'p99, no subscription',
        'ms',
        without.map((r) => r.p99),
      ),
      figure(
        'p99, a receiver answering at once',
        'ms',
        withFast.map((r) => r.p99),
      ),
      figure(
        'p99, a 5 s receiver',
        'ms',
        withSlow.map((r) => r.p99),
      ),
      figure('requests/s, no subscription', 'req/s', perSecond(without)),
      figure('requests/s, a receiver answering at once', 'req/s', perSecond(withFast)),
      figure('requests/s, a 5 s receiver', 'req/s', perSecond(withSlow)),
      figure(
        'a receiver answering at once / none',
        '×',
        ratios(perSecond(withFast), perSecond(without)),
        'req/s, per run: what telling costs',
      ),
      figure(
        'a 5 s receiver / one answering at once',
        '×',
        ratios(perSecond(withSlow), perSecond(withFast)),
        'req/s, per run: what a slow receiver costs',
      ),
    ];
    const failed = [...without, ...withFast, ...withSlow].reduce((n, r) => n + r.failed, 0);
    const notes = [
      `webhooks: ${MIN_RUNS} runs of ${SECONDS} s each way after a 1-run warm-up; the receiver was sent ${receiver.received()} deliveries meanwhile (each answered after ${RECEIVER_DELAY_MS / 1000} s)`,
    ];
    if (failed > 0) notes.push(`webhooks: ${failed} requests failed or were not 2xx`);
    return { figures, notes };
  } finally {
    await worker?.stop();
    await generator.stop();
    await receiver.stop();
    await fast.stop();
    await server.stop();
    delete process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP;
    delete process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE;
  }
}
