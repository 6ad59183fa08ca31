// The fast path of a tools/call (apps/api/src/server/mcp/fast-call.ts; docs/mcp.md, "The fast path") against the
// SDK's: two gateways of one agent, one answering plain tools/calls itself and one handing every message to the
// SDK, are sent the same generated messages (tools/calls with odd arguments, numbers as written, escapes, members
// named twice, confirmations, notifications, batches, malformed texts, ids of every JSON type) and must answer
// alike and send the recording upstream the same calls: over stdio-shaped streams, and at /mcp of two servers on
// loopback over the same data folder (the second with `fastCalls: false`).
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { serve } from '@hono/node-server';
import { isJSONRPCRequest, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { ExactArguments, ExactStdioTransport, readExactMessage } from '../src/server/mcp/exact-stdio-transport.ts';
import { FastCalls, fastCallOf } from '../src/server/mcp/fast-call.ts';
import { createGateway } from '../src/server/mcp/gateway.ts';
import { mapUpstreams, recordedCalls, recordingUpstream, requireConfirmation } from './mcp-fixture.ts';
import { agentKey, startServer, type TestServer } from './server-harness.ts';

interface Side {
  name: string;
  gateway: ReturnType<typeof createGateway>;
  transport: ExactStdioTransport;
  stdin: PassThrough;
  answers: string[];
  /** Requests taken (by the SDK or the fast path) and not answered yet: an exchange ends when none is left. */
  unanswered: number;
}

/** A session at /mcp of a server of its own over the test's data folder. */
interface HttpSide {
  url: string;
  session: string;
  close: () => Promise<void>;
}

let s: TestServer;
let record: string;
const sides: Side[] = [];
const httpSides: HttpSide[] = [];

/** A gateway on streams of its own, as `tollgate mcp` wires it; `fast` says whether plain tools/calls skip the SDK. */
async function openSide(name: string, fast: boolean): Promise<Side> {
  const exact = new ExactArguments();
  // A held call waits a moment only: its answer (APPROVAL_WAIT_ENDED) is what both paths must agree on.
  const gateway = createGateway(s.ctx, 'support-bot', { approvalWaitMs: 30, upstreamTimeoutMs: 10_000, exact });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new ExactStdioTransport(exact, stdin, stdout);
  if (fast) transport.fast = new FastCalls({ answer: gateway.answerCall, server: gateway.server });
  const side: Side = { name, gateway, transport, stdin, answers: [], unanswered: 0 };
  let out = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    out += chunk;
    for (let end = out.indexOf('\n'); end !== -1; end = out.indexOf('\n')) {
      side.answers.push(out.slice(0, end));
      out = out.slice(end + 1);
    }
  });
  await gateway.server.connect(transport);
  // Counted where each way takes a request and where every answer leaves: a request the SDK routes to a handler
  // (its own isJSONRPCRequest) is always answered unless cancelled, and none is cancelled here.
  const toSdk = transport.onmessage;
  transport.onmessage = (message) => {
    if (isJSONRPCRequest(message)) side.unanswered++;
    toSdk?.(message);
  };
  const fastStart = transport.fast?.start.bind(transport.fast);
  if (transport.fast && fastStart) {
    transport.fast.start = (call, reply) => {
      side.unanswered++;
      fastStart(call, reply);
    };
  }
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    // The transport's own parse errors (-32700) answer no request it took.
    const parseError = 'error' in message && (message.error as { code?: number }).code === -32700;
    if ('id' in message && ('result' in message || 'error' in message) && !parseError) side.unanswered--;
  };
  return side;
}

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-fast-path.jsonl');
  record = recorder.record;
  // search_orders asks for a person's confirmation, so a confirmed call (`_meta`) is forwarded and another is not.
  await requireConfirmation(s, 'search_orders');
  await mapUpstreams(s, [recorder.upstream], {
    read_order: { server: 'recorder', tool: 'read' },
    issue_refund: { server: 'recorder', tool: 'refund' },
    send_payout: { server: 'recorder', tool: 'refund' },
    search_orders: { server: 'recorder', tool: 'read' },
  });
  sides.push(await openSide('fast', true), await openSide('sdk', false));
  httpSides.push(await openHttpSide(true), await openHttpSide(false));
}, 60_000);

afterAll(async () => {
  for (const side of sides) await side.gateway.close();
  for (const side of httpSides) await side.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
});

/** A server over the test's context whose /mcp takes the fast path or not, and a session opened on it. */
async function openHttpSide(fastCalls: boolean, approvalWaitMs = 30): Promise<HttpSide> {
  const app = createApp({ ctx: s.ctx, mcp: { approvalWaitMs, upstreamTimeoutMs: 10_000, fastCalls } });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const init = await fetch(url, {
    method: 'POST',
    headers: { ...HTTP_HEADERS, authorization: `Bearer ${agentKey(s, 'support-bot')}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'differential', version: '1' } },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  expect([init.status, typeof session]).toEqual([200, 'string']);
  await init.text();
  const side = { url, session: session as string, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  await postHttp(side, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return side;
}

const HTTP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** POSTs `text` in the session: the status, the media type and each JSON-RPC message of the answer, normalised. */
async function postHttp(
  side: HttpSide,
  text: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; messages: unknown[] }> {
  const res = await fetch(side.url, {
    method: 'POST',
    headers: {
      ...HTTP_HEADERS,
      ...headers,
      authorization: `Bearer ${agentKey(s, 'support-bot')}`,
      'mcp-session-id': side.session,
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    },
    body: text,
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.text();
  const type = res.headers.get('content-type');
  const texts = type?.startsWith('text/event-stream')
    ? body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice('data: '.length))
    : body === ''
      ? []
      : [body];
  return { status: res.status, type, messages: texts.map(normalised) };
}

/** A JSON text with what is new at every call (call ids, approval ids, times) replaced. */
function normalised(text: string): unknown {
  return JSON.parse(
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME'),
  );
}

let sentinel = 0;

/** The plain copy a text is read to, or null when the exact reader refuses it. */
function sdkRead(text: string): unknown {
  const read = readExactMessage(text, new ExactArguments());
  return read.ok ? read.message : null;
}

/** Writes `text` as one line and waits until everything it caused is answered: no call running, a ping answered after. */
async function exchange(side: Side, text: string): Promise<{ answers: unknown[]; upstream: unknown[] }> {
  const before = side.answers.length;
  const recorded = recordedCalls(record).length;
  const pinged = (ping: string) => side.answers.slice(before).some((a) => a.includes(ping));
  // The transport reads lines in order and starts each one's handler as it reads it (a call counts itself in
  // progress then): once a ping written after the line is answered, the line's requests are counted.
  const read = `sentinel-${++sentinel}`;
  side.stdin.write(`${text}\n${JSON.stringify({ jsonrpc: '2.0', id: read, method: 'ping' })}\n`);
  await expect.poll(() => pinged(read), { timeout: 10_000, interval: 5 }).toBe(true);
  await expect.poll(() => side.unanswered, { timeout: 10_000, interval: 5 }).toBe(0);
  const done = `sentinel-${++sentinel}`;
  side.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: done, method: 'ping' })}\n`);
  await expect.poll(() => pinged(done), { timeout: 10_000, interval: 5 }).toBe(true);
  const answers = side.answers
    .slice(before)
    .filter((a) => !a.includes(read) && !a.includes(done))
    // Call ids and approval ids are new for every call: the rest must be the same.
    .map(normalised);
  return { answers, upstream: recordedCalls(record).slice(recorded) };
}

// Texts of JSON values, numbers as written and strings with escapes, so the exact reader's lexemes are exercised.
const numberText = fc.oneof(
  fc.constantFrom('0', '-0', '1.50', '1e3', '2E-2', '10.0', '9007199254740993', '-12', '0.1', '1e400'),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
);
const stringText = fc.oneof(
  fc.string({ maxLength: 8 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('"\\u00e9t\\u00e9"', '"a\\"b\\\\c"', '"\\ud83d\\ude00"', '"line\\nbreak"', '"tab\\t"', '"\\/"'),
);
const keyText = fc.oneof(fc.constantFrom('"id"', '"amount"', '"order"', '"__proto__"', '"constructor"', '"a\\u0062"', '""'), stringText);
const valueText: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    numberText,
    stringText,
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('value') as fc.Arbitrary<string>, { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    tie('object') as fc.Arbitrary<string>,
  ),
  object: fc
    .array(fc.tuple(keyText, tie('value') as fc.Arbitrary<string>), { maxLength: 4 })
    .map((members) => `{${members.map(([k, v]) => `${k}:${v}`).join(',')}}`),
})).value;

/** Arguments: objects of odd members (a member named twice among them), and now and then no object at all. */
const argumentsText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(fc.tuple(keyText, valueText), { maxLength: 4 }).map((m) => `{${m.map(([k, v]) => `${k}:${v}`).join(',')}}`),
  },
  { weight: 2, arbitrary: fc.tuple(numberText, fc.constantFrom('"A-1"', '"o-7"')).map(([n, o]) => `{"amount":${n},"order":${o}}`) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":1,"a":2}', '[]', '"text"', 'null', '{"id":"o-1","id":"o-2"}') },
);
const idText = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom('1.0', '1.5', '1e2', '9007199254740993', 'null', 'true', '{}', '[1]', '""', '"call-\\u0031"'),
  fc.string({ maxLength: 6 }).map((v) => JSON.stringify(v)),
);
const toolText = fc.constantFrom(
  '"read_order"',
  '"search_orders"',
  '"issue_refund"',
  '"send_payout"',
  '"export_customers"',
  '"no_such_tool"',
  '7',
);
const metaText = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constant(',"_meta":{"tollgate/confirmed":true}') },
  { weight: 3, arbitrary: fc.constantFrom(',"_meta":{}', ',"_meta":{"progressToken":"p-1"}', ',"_meta":{"other":1}', ',"_meta":null') },
);

const toolsCall = fc
  .tuple(idText, toolText, fc.option(argumentsText, { nil: undefined }), metaText, fc.constantFrom('', ',"extra":1'))
  .map(([id, tool, args, meta, extra]) => {
    const params = `{"name":${tool}${args === undefined ? '' : `,"arguments":${args}`}${meta}}`;
    return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}${extra}}`;
  });
/** A call of the plain shape the fast path takes: its members named once, an id the SDK reads as a request's. */
const plainCall = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: -1000, max: 1000 }).map(String),
      fc.string({ maxLength: 6 }).map((v) => JSON.stringify(v)),
    ),
    toolText,
    fc.uniqueArray(fc.tuple(keyText, valueText), { maxLength: 3, selector: ([k]) => JSON.parse(k) as string }),
    fc.constantFrom('', ',"_meta":{"tollgate/confirmed":true}'),
  )
  .map(([id, tool, members, meta]) => {
    const args = `{${members.map(([k, v]) => `${k}:${v}`).join(',')}}`;
    return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${tool},"arguments":${args}${meta}}}`;
  });
const messageText = fc.oneof(
  { weight: 10, arbitrary: plainCall },
  { weight: 8, arbitrary: toolsCall },
  // The same call as a notification, in a batch, with its members in another order, or cut short.
  { weight: 1, arbitrary: toolsCall.map((t) => t.replace(/"id":[^,]*,/, '')) },
  { weight: 1, arbitrary: toolsCall.map((t) => `[${t}]`) },
  { weight: 1, arbitrary: toolsCall.map((t) => t.replace('"jsonrpc":"2.0",', '').replace(/}$/, ',"jsonrpc":"2.0"}')) },
  { weight: 1, arbitrary: fc.tuple(toolsCall, fc.nat()).map(([t, n]) => t.slice(0, n % t.length)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{"jsonrpc":"2.0","id":5,"method":"tools/list"}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
      '{"jsonrpc":"2.0","id":6,"method":"tools/call"}',
      '{"jsonrpc":"1.0","id":7,"method":"tools/call","params":{"name":"read_order"}}',
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_order","arguments":{"id":"o-1"},"task":{}}}',
      '{"jsonrpc":"2.0","id":9,"id":10,"method":"tools/call","params":{"name":"read_order"}}',
      '{"jsonrpc":"2.0","id":11,"method":"resources/list"}',
      'not json',
    ),
  },
);

/**
 * Calls every run of the differential properties holds, each forwarded by both ways: how many generated calls pass
 * the gate is left to chance, and the properties say little unless the upstream is called through both.
 */
const FORWARDED_EXAMPLES: [string][] = [
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_order","arguments":{"id":"A-1"}}}',
  '{"jsonrpc":"2.0","id":"r-2","method":"tools/call","params":{"name":"read_order","arguments":{"id":"\\u00e9"}}}',
  '{"jsonrpc":"2.0","id":-3,"method":"tools/call","params":{"name":"read_order","arguments":{}}}',
  '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_order"}}',
  '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":"2","order":"B-2"}}}',
  '{"jsonrpc":"2.0","id":"6","method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":"1.50","order":"A-1"}}}',
  '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_orders","arguments":{"id":"o-7"},"_meta":{"tollgate/confirmed":true}}}',
  '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_order","arguments":{"id":"o-1"},"_meta":{"progressToken":"p-1"}}}',
].map((text) => [text]);

describe('the fast path of a tools/call', () => {
  it('takes only the plain shape, each as the SDK reads it', () => {
    expect(fastCallOf({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_order' } })).toEqual({
      id: 1,
      params: { name: 'read_order' },
    });
    for (const message of [
      { jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: { name: 'read_order' } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_order', _meta: { progressToken: 1 } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_order', task: {} } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_order', arguments: [] } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_order' }, extra: true },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_order' } }],
    ]) {
      expect(fastCallOf(message)).toBeUndefined();
    }
  });

  it('keeps each call its own arguments when a fast call shares its id with one the SDK answers', async () => {
    // Ids of calls in flight should differ (JSON-RPC), but the arguments must never cross whatever the client sends.
    const fast = sides[0] as Side;
    const recorded = recordedCalls(record).length;
    const before = fast.answers.length;
    const bySdk =
      '{"jsonrpc":"2.0","id":"same","method":"tools/call","params":{"name":"read_order","arguments":{"id":"A-1"},"_meta":{"progressToken":"p"}}}';
    const byFast =
      '{"jsonrpc":"2.0","id":"same","method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":"2","order":"B-2"}}}';
    fast.stdin.write(`${bySdk}\n${byFast}\n`);
    await expect.poll(() => fast.answers.length - before, { timeout: 10_000 }).toBe(2);
    expect(
      recordedCalls(record)
        .slice(recorded)
        .sort((a, b) => a.tool.localeCompare(b.tool)),
    ).toEqual([
      { tool: 'read', arguments: { id: 'A-1' } },
      { tool: 'refund', arguments: { amount: '2', order: 'B-2' } },
    ]);
    // The other side's session is sent the same calls, so the sessions' histories stay alike for the property
    // below: `issue_refund` runs at most five times a session, and one call more on one side decides differently.
    const sdk = sides[1] as Side;
    for (const [text, id] of [
      [bySdk, 'same-a'],
      [byFast, 'same-b'],
    ] as const) {
      expect((await exchange(sdk, text.replace('"id":"same"', `"id":"${id}"`))).upstream).toHaveLength(1);
    }
  });

  it('never hands a call the arguments of one the SDK refused under the same id', async () => {
    // A call asking for a task is refused by the SDK before the gateway's handler runs: its arguments are not kept.
    for (const side of sides) {
      const refused =
        '{"jsonrpc":"2.0","id":"stale","method":"tools/call","params":{"name":"read_order","arguments":{"id":"OLD"},"task":{}}}';
      const later = '{"jsonrpc":"2.0","id":"stale","method":"tools/call","params":{"name":"read_order","_meta":{"progressToken":"p"}}}';
      expect((await exchange(side, refused)).upstream).toEqual([]);
      expect((await exchange(side, later)).upstream).toEqual([{ tool: 'read', arguments: {} }]);
    }
  });

  it('answers generated messages as the SDK does, with the same upstream traffic', async () => {
    let fastTaken = 0;
    let forwarded = 0;
    await fc.assert(
      fc.asyncProperty(messageText, async (text) => {
        const [fast, sdk] = sides as [Side, Side];
        const byFast = await exchange(fast, text);
        const bySdk = await exchange(sdk, text);
        expect(byFast.answers).toEqual(bySdk.answers);
        expect(byFast.upstream).toEqual(bySdk.upstream);
        if (fastCallOf(JSON.parse(JSON.stringify(sdkRead(text)))) !== undefined) fastTaken++;
        if (byFast.upstream.length > 0) forwarded++;
      }),
      { numRuns: 200, examples: FORWARDED_EXAMPLES },
    );
    // The property says little unless the fast path took many of them, and the upstream was called through both.
    expect(fastTaken).toBeGreaterThan(50);
    expect(forwarded).toBeGreaterThanOrEqual(FORWARDED_EXAMPLES.length);
  }, 120_000);

  it('never hands a call at /mcp the arguments of one whose headers the SDK refused', async () => {
    for (const side of httpSides) {
      const call = (args: string) => `{"jsonrpc":"2.0","id":"stale","method":"tools/call","params":{"name":"read_order"${args}}}`;
      const recorded = recordedCalls(record).length;
      expect((await postHttp(side, call(',"arguments":{"id":"OLD"}'), { accept: 'application/json' })).status).toBe(406);
      expect((await postHttp(side, call(''))).status).toBe(200);
      expect(recordedCalls(record).slice(recorded)).toEqual([{ tool: 'read', arguments: {} }]);
    }
  });

  it('sends a held call’s event-stream headers after a second, and its answer when it comes', async () => {
    const side = await openHttpSide(true, 2500);
    try {
      const started = Date.now();
      const res = await fetch(side.url, {
        method: 'POST',
        headers: {
          ...HTTP_HEADERS,
          authorization: `Bearer ${agentKey(s, 'support-bot')}`,
          'mcp-session-id': side.session,
        },
        body: '{"jsonrpc":"2.0","id":"held","method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":"900","order":"H-1"}}}',
      });
      const headersAfter = Date.now() - started;
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
      const body = await res.text();
      // Headers at the second, as the SDK's would come at once; the answer once the approval wait ends.
      expect(headersAfter).toBeGreaterThanOrEqual(900);
      expect(headersAfter).toBeLessThan(2400);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
      expect(body).toContain('APPROVAL_WAIT_ENDED');
    } finally {
      await side.close();
    }
  }, 20_000);

  it('answers generated messages at /mcp as the SDK does, with the same upstream traffic', async () => {
    let fastTaken = 0;
    let forwarded = 0;
    await fc.assert(
      fc.asyncProperty(messageText, async (text) => {
        const [fast, sdk] = httpSides as [HttpSide, HttpSide];
        let recorded = recordedCalls(record).length;
        const byFast = await postHttp(fast, text);
        const fastUpstream = recordedCalls(record).slice(recorded);
        recorded = recordedCalls(record).length;
        const bySdk = await postHttp(sdk, text);
        const took = fastCallOf(sdkRead(text)) !== undefined;
        // A call the fast path took is answered as one JSON body, where the SDK's transport streams the same message.
        expect(byFast.type).toBe(took ? 'application/json' : bySdk.type);
        expect({ ...byFast, type: bySdk.type }).toEqual(bySdk);
        expect(fastUpstream).toEqual(recordedCalls(record).slice(recorded));
        if (took) fastTaken++;
        if (fastUpstream.length > 0) forwarded++;
      }),
      { numRuns: 120, examples: FORWARDED_EXAMPLES },
    );
    expect(fastTaken).toBeGreaterThan(30);
    expect(forwarded).toBeGreaterThanOrEqual(FORWARDED_EXAMPLES.length);
  }, 120_000);
});
