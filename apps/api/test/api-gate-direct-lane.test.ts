// The gate's direct lane (gate/direct-lane.ts) held to the app it stands before: two servers on two workspaces
// seeded alike, one with the lane and one without, are sent the same generated requests in the same order (calls
// of every tool with amounts written every way, other agents' and members' keys, other media types, bodies cut
// short, members named twice, bytes that are not UTF-8, queries, escapes) and answer alike: the status, every header
// but Date, the body with its ids and times masked. A call in the lane's shape is answered by the lane itself, and
// a decision that throws there is answered by the app, as the app answers it.

import { createServer, type RequestListener, request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { directGate } from '../src/server/gate/direct-lane.ts';
import { answersWrittenTogether } from '../src/server/gate/turn-end-answers.ts';
import { answersOn, openSocket } from './raw-http-answers.ts';
import { agentKey, countRows, decisionRow, type LooseJson, startServer, type TestServer } from './server-harness.ts';

let lane: TestServer;
let plain: TestServer;
beforeAll(async () => {
  [lane, plain] = await Promise.all([startServer(), startServer({ directGate: false })]);
});
afterAll(async () => {
  await Promise.all([lane?.stop(), plain?.stop()]);
});

type Who = 'support-bot' | 'refunds-bot' | 'owner' | 'viewer' | 'unknown' | 'none' | 'basic';

interface Sent {
  path: string;
  who: Who;
  type: string | undefined;
  body: Buffer;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: LooseJson;
}

function authorization(s: TestServer, who: Who): string | undefined {
  if (who === 'none') return undefined;
  if (who === 'basic') return 'Basic dXNlcjpwYXNz';
  if (who === 'unknown') return `Bearer ${s.key('agent').slice(0, -6)}zzzzzz`;
  if (who === 'owner' || who === 'viewer') return `Bearer ${s.key(who)}`;
  return `Bearer ${agentKey(s, who)}`;
}

/** Sends the request byte for byte as given (node:http, no client rewriting it). */
function send(s: TestServer, sent: Sent): Promise<Answer> {
  const url = new URL(s.url);
  const headers: Record<string, string> = { 'content-length': String(sent.body.length) };
  const auth = authorization(s, sent.who);
  if (auth !== undefined) headers.authorization = auth;
  if (sent.type !== undefined) headers['content-type'] = sent.type;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: sent.path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const { date: _date, ...rest } = res.headers;
        let body: LooseJson = text;
        try {
          body = masked(JSON.parse(text));
        } catch {
          // Not JSON: compared as text.
        }
        resolve({ status: res.statusCode ?? 0, headers: rest, body });
      });
    });
    req.on('error', reject);
    req.end(sent.body);
  });
}

/** Serves `listener` on a free loopback port. */
function listen(listener: RequestListener): Promise<{ url: string; close(): void }> {
  return new Promise((resolve) => {
    const server = createServer(listener).listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    );
  });
}

/** The answer with what differs from one workspace to the other by nature: the call's and approval's ids, the expiry. */
function masked(json: LooseJson): LooseJson {
  if (json && typeof json === 'object' && typeof json.call_id === 'string') {
    const out = { ...json, call_id: 'CALL' };
    if (out.approval) out.approval = { ...out.approval, id: 'APPROVAL', expires_at: 'EXPIRES' };
    return out;
  }
  return json;
}

const TOOLS = ['issue_refund', 'read_order', 'search_orders', 'send_payout', 'export_customers', 'read_customer', 'launch_rocket'];
const AMOUNTS = fc.oneof(
  fc.constantFrom('50', '500', '5000', '5000.5', '1e3', '-5', '012', '100.00001', '0', ''),
  fc.integer({ min: -10, max: 9000 }),
  fc.constantFrom(12.5, 1e21, 0.1),
);
const ARGUMENTS = fc.record(
  {
    amount: AMOUNTS,
    order: fc.string({ maxLength: 12 }),
    id: fc.constantFrom('A-1', 'B-2', 'ü', '\u2028'),
    nested: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)), {
      maxKeys: 3,
    }),
  },
  { requiredKeys: [] },
);
/** A call's body as a client writes it: the call, sometimes with a session, a confirmation, contexts or a key too many. */
const CALL = fc
  .tuple(
    fc.record(
      {
        tool: fc.constantFrom(...TOOLS),
        arguments: ARGUMENTS,
        session: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('s-1', 's-2') }, { weight: 1, arbitrary: fc.constant('') }),
        confirmed: fc.boolean(),
        contexts: fc.constant({ channel: 'chat' }),
      },
      { requiredKeys: ['tool', 'arguments'] },
    ),
    fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  )
  .map(([call, extra]): Record<string, unknown> => (extra ? { ...call, extra: 1 } : call));

/** How the call's text is spoiled, if at all: most are left as written, the lane's own shape. */
type Spoil = 'none' | 'spaced' | 'twice' | 'cut' | 'latin1' | 'empty' | 'array';
const SPOIL = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Spoil>('none') },
  { weight: 1, arbitrary: fc.constantFrom<Spoil>('spaced', 'twice', 'cut', 'latin1', 'empty', 'array') },
);

function bodyOf(call: Record<string, unknown>, spoil: Spoil): Buffer {
  const text = JSON.stringify(call);
  switch (spoil) {
    case 'none':
      return Buffer.from(text);
    case 'spaced':
      return Buffer.from(JSON.stringify(call, null, 2));
    case 'twice':
      return Buffer.from(`{"tool":"read_order",${text.slice(1)}`);
    case 'cut':
      return Buffer.from(text.slice(0, Math.max(1, text.length - 3)));
    case 'latin1':
      return Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0x2c, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d])]);
    case 'empty':
      return Buffer.alloc(0);
    case 'array':
      return Buffer.from(`[${text}]`);
  }
}

const SENT = fc.record({
  path: fc.oneof(
    { weight: 8, arbitrary: fc.constant('/v1/agents/support-bot/calls') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '/v1/agents/refunds-bot/calls',
        '/v1/agents/nobody/calls',
        '/v1/agents/support-bot/calls?x=1',
        '/v1/agents/support%2Dbot/calls',
        '/v1/agents/support-bot/calls/',
        '/v1/agents/Support Bot/calls'.replace(' ', '%20'),
      ),
    },
  ),
  who: fc.oneof(
    { weight: 8, arbitrary: fc.constant<Who>('support-bot') },
    { weight: 2, arbitrary: fc.constantFrom<Who>('refunds-bot', 'owner', 'viewer', 'unknown', 'none', 'basic') },
  ),
  type: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>('application/json') },
    { weight: 2, arbitrary: fc.constantFrom<string | undefined>('application/json; charset=utf-8', 'text/plain', undefined) },
  ),
  call: CALL,
  spoil: SPOIL,
});

describe("the gate's direct lane", () => {
  it('answers every generated request as the app alone does, and takes the calls in its shape itself', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(SENT, async ({ path, who, type, call, spoil }) => {
        const sent: Sent = { path, who, type, body: bodyOf(call, spoil) };
        const before = lane.appRequests();
        const viaLane = await send(lane, sent);
        const handedOn = lane.appRequests() - before;
        const viaApp = await send(plain, sent);
        expect(viaLane).toEqual(viaApp);
        // A well-formed call of the path's own agent, with its key, never reaches the app.
        const own = path === '/v1/agents/support-bot/calls' && who === 'support-bot';
        const wellFormed = spoil === 'none' && type !== 'text/plain' && type !== undefined && !('extra' in call);
        const validCall = wellFormed && (call.session === undefined || call.session !== '');
        if (own && validCall) {
          expect(handedOn).toBe(0);
          taken++;
        }
      }),
      { numRuns: 150 },
    );
    expect(taken).toBeGreaterThan(20);
    // As many decisions on each: none made twice, none lost.
    expect(await countRows(lane, 'decisions')).toBe(await countRows(plain, 'decisions'));
    expect(await countRows(lane, 'approvals')).toBe(await countRows(plain, 'approvals'));
  });

  it('hands a call whose decision threw to the app, which answers it as its own, nothing recorded', async () => {
    // refunds-bot made unloadable, as a data folder can hold it: straight into the store.
    const id = 'agents/refunds-bot.agent.yaml';
    for (const s of [lane, plain]) {
      await s.ctx.store.save({ id, text: 'catalogue: [not, a, name', author: { kind: 'system', label: 'test' }, reason: 'unloadable' });
    }
    const sent: Sent = {
      path: '/v1/agents/refunds-bot/calls',
      who: 'refunds-bot',
      type: 'application/json',
      body: Buffer.from(JSON.stringify({ tool: 'issue_refund', arguments: { amount: '5' } })),
    };
    const decisions = await countRows(lane, 'decisions');
    const before = lane.appRequests();
    const viaLane = await send(lane, sent);
    expect(lane.appRequests() - before).toBe(1);
    expect(viaLane.status).toBe(409);
    expect(viaLane.body.error).toMatchObject({ code: 'AGENT_NOT_LOADABLE' });
    expect(viaLane).toEqual(await send(plain, sent));
    expect(await countRows(lane, 'decisions')).toBe(decisions);
  });

  it('answers a held call with its approval, written once', async () => {
    const approvals = await countRows(lane, 'approvals');
    const before = lane.appRequests();
    const held = await send(lane, {
      path: '/v1/agents/support-bot/calls',
      who: 'support-bot',
      type: 'application/json',
      body: Buffer.from(JSON.stringify({ tool: 'issue_refund', arguments: { amount: '500' } })),
    });
    expect(lane.appRequests()).toBe(before);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ decision: 'require_approval', approval: { id: 'APPROVAL', approvers_count: 3 } });
    expect(held.headers).toMatchObject({ 'cache-control': 'no-store', 'content-type': 'application/json', 'x-frame-options': 'DENY' });
    expect(await countRows(lane, 'approvals')).toBe(approvals + 1);
  });

  it('stands aside where there is no state', () => {
    const app: RequestListener = () => undefined;
    expect(directGate({}, app)).toBe(app);
    expect(directGate({ ctx: lane.ctx }, app)).not.toBe(app);
  });

  it("where CORS origins are listed, answers an agent's call (no Origin, or one not listed) as the app does, Vary and all, and hands a listed origin's to it", async () => {
    const options = { ctx: lane.ctx, corsOrigins: ['https://ops.example.com', 'http://localhost:5173'] };
    let reached = 0;
    const app = getRequestListener(createApp(options).fetch);
    const counted: RequestListener = (req, res) => {
      reached++;
      return app(req, res);
    };
    const served = await Promise.all([directGate(options, counted), app].map(listen));
    try {
      const origins = [
        undefined,
        'https://ops.example.com',
        'http://localhost:5173',
        'https://evil.example.com',
        'null',
        'https://ops.example.com:443',
      ];
      for (const origin of origins) {
        for (const amount of ['50', '500', '5000']) {
          const before = reached;
          const [viaLane, viaApp] = await Promise.all(
            served.map(async (s) => {
              const r = await fetch(`${s.url}/v1/agents/support-bot/calls`, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  authorization: `Bearer ${lane.key('agent')}`,
                  ...(origin === undefined ? {} : { origin }),
                },
                body: JSON.stringify({ tool: 'issue_refund', arguments: { amount } }),
              });
              return {
                status: r.status,
                headers: [...r.headers].filter(([name]) => name !== 'date'),
                body: masked((await r.json()) as LooseJson),
              };
            }),
          );
          if (!viaLane || !viaApp) throw new Error('a server did not answer');
          expect(viaLane).toEqual(viaApp);
          expect(viaLane.headers).toContainEqual(['vary', 'Origin']);
          const listed = origin === 'https://ops.example.com' || origin === 'http://localhost:5173';
          expect(reached - before, `origin ${origin}`).toBe(listed ? 1 : 0);
          if (listed) expect(viaLane.headers).toContainEqual(['access-control-allow-origin', origin]);
        }
      }
    } finally {
      for (const s of served) s.close();
    }
  });

  it('answers calls that come together each with its own decision, and a client gone before its answer costs no other', async () => {
    // The lane writes a turn's answers together at its end, or sixteen at a time (gate/turn-end-answers.ts): each
    // must still reach the connection its call came on, and a connection closed meanwhile must not keep the rest
    // from theirs.
    const url = new URL(lane.url);
    const key = lane.key('agent');
    const requestOf = (call: object) => callRequest(url.host, key, call);
    let together = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 9_999 }), { minLength: 2, maxLength: 40 }),
        fc.nat(),
        async (cents, leaving) => {
          const sockets = await Promise.all(cents.map(() => openSocket(Number(url.port), url.hostname)));
          const answers = sockets.map((socket) => {
            const next = answersOn(socket);
            return async () => {
              const { status, body } = await next();
              return { status, body: JSON.parse(body) as LooseJson };
            };
          });
          // One call each first, so that every connection is taken and read by the server before the burst.
          for (const socket of sockets) socket.write(requestOf(refundOf(1)));
          await Promise.all(answers.map((next) => next()));
          const gone = leaving % sockets.length;
          const calls = cents.map(refundOf);
          const before = answersWrittenTogether();
          // Written in one turn of this event loop, so they reach the server together.
          for (const [i, socket] of sockets.entries()) socket.write(requestOf(calls[i] as object));
          (sockets[gone] as Socket).destroy();
          const second = await Promise.all(answers.map((next, i) => (i === gone ? undefined : next())));
          for (const socket of sockets) socket.destroy();
          together += answersWrittenTogether() - before;
          for (const [i, answer] of second.entries()) {
            if (answer === undefined) continue;
            expect(answer.status).toBe(200);
            const row = await decisionRow(lane, answer.body.call_id);
            expect(JSON.parse(row.arguments ?? 'null')).toEqual(calls[i]?.arguments);
            expect(row.decision).toBe(answer.body.decision);
          }
        },
      ),
      { numRuns: 12 },
    );
    // The case this is for came up: answers written in one turn, together.
    expect(together).toBeGreaterThan(0);
  });

  it('answers calls pipelined on one connection in the order they came, each with its own decision', async () => {
    const url = new URL(lane.url);
    const key = lane.key('agent');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: 9_999 }), { minLength: 2, maxLength: 12 }), async (cents) => {
        const socket = await openSocket(Number(url.port), url.hostname);
        const next = answersOn(socket);
        const calls = cents.map(refundOf);
        socket.write(calls.map((call) => callRequest(url.host, key, call)).join(''));
        for (const call of calls) {
          const answer = await next();
          expect(answer.status).toBe(200);
          const row = await decisionRow(lane, JSON.parse(answer.body).call_id);
          expect(JSON.parse(row.arguments ?? 'null')).toEqual(call.arguments);
        }
        socket.destroy();
      }),
      { numRuns: 10 },
    );
  });

  it('decides nothing of a body cut short, and goes on answering', async () => {
    const decisions = await countRows(lane, 'decisions');
    const url = new URL(lane.url);
    const whole = JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50' } });
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /v1/agents/support-bot/calls HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
            `Authorization: Bearer ${lane.key('agent')}\r\nContent-Length: ${whole.length}\r\n\r\n${whole.slice(0, 20)}`,
        );
        // The rest never comes: the client goes away.
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const after = await send(lane, {
      path: '/v1/agents/support-bot/calls',
      who: 'support-bot',
      type: 'application/json',
      body: Buffer.from(whole),
    });
    expect(after.body).toMatchObject({ decision: 'allow' });
    expect(await countRows(lane, 'decisions')).toBe(decisions + 1);
  });

  it("answers over a proxy's TLS with Strict-Transport-Security, as the app does", async () => {
    // One state, served twice with --trust-forwarded-proto's option: with the lane, and by the app alone.
    const options = { ctx: lane.ctx, trustForwardedProto: true };
    const app = getRequestListener(createApp(options).fetch);
    const served = await Promise.all([directGate(options, app), app].map(listen));
    try {
      const answers = await Promise.all(
        served.map((s) =>
          fetch(`${s.url}/v1/agents/support-bot/calls`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${lane.key('agent')}`, 'x-forwarded-proto': 'https' },
            body: JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50' } }),
          }),
        ),
      );
      const [viaLane, viaApp] = answers.map((r) => [...r.headers].filter(([name]) => name !== 'date'));
      expect(viaLane).toContainEqual(['strict-transport-security', 'max-age=31536000']);
      expect(viaLane).toEqual(viaApp);
    } finally {
      for (const s of served) s.close();
    }
  });
});

/** A refund of `cents` as a call's body. */
function refundOf(cents: number): { tool: string; arguments: { amount: string } } {
  return { tool: 'issue_refund', arguments: { amount: `${Math.floor(cents / 100)}.${cents % 100}` } };
}

/** The raw HTTP/1.1 request of `call` to support-bot's calls at `host`, with `key`. */
function callRequest(host: string, key: string, call: object): string {
  const body = JSON.stringify(call);
  return (
    `POST /v1/agents/support-bot/calls HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
    `Authorization: Bearer ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}
