// The gate's direct lane (docs/architecture.md, "The gate's direct lane"; docs/performance.md): a gate call in the
// shape only the call itself can refuse is read, decided and answered on node:http's own request and response, without
// the framework's web Request and Response and its middleware chain, which cost the event loop more than the gate's own
// work. The shape: POST /v1/agents/{agent}/calls with no query and no percent escape, a JSON body of a stated length
// within the limit, an agent's own key (never an identity provider's token), no Origin of a listed CORS origin
// (cross-origin.ts answers those). Everything else, and every call the lane does not answer with its 200, goes to the
// app (app.ts) as it came, its body handed on as @hono/node-server reads it (`rawBody`): each refusal is the app's own
// answer. A decision that threw goes with its error, which the gate route throws again instead of deciding twice
// (routes/gate.ts, `laneFailure`). The 200 carries the headers the app's middlewares give it (answer-headers.ts), and
// `Vary: Origin` where CORS origins are listed, as cross-origin.ts adds it; it is written with the turn's other
// answers, at the turn's end (turn-end-answers.ts).
import { createServer, type IncomingMessage, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';
import { type HeaderRecord, preparedJsonHeaders } from '../answer-headers.ts';
import { NO_STORE } from '../api-headers.ts';
import { keyAuthentication } from '../auth.ts';
import { MAX_REQUEST_BODY_BYTES } from '../body-limit.ts';
import { readCallBody } from '../call-body-reader.ts';
import { agentNameIssues, type CallRequestBody, callBodyIssues, JSON_REQUEST } from '../call-request.ts';
import type { AppContext } from '../context.ts';
import { listedOrigins } from '../cross-origin.ts';
import { utf8TextOf } from '../exact-body.ts';
import { isTollgateKey } from '../identity/identity.ts';
import { MAX_BODY_DEPTH } from '../json-depth.ts';
import { withIncomingHeaders } from '../observability/tracing.ts';
import { incomingOverTls, securityHeaderRecords } from '../security-headers.ts';
import { asArrived } from '../state/request-arrival.ts';
import { decideAgentCall } from './decide-agent-call.ts';
import { answerAtTurnEnd } from './turn-end-answers.ts';

/** The gate route's path with nothing the route would have to decode or refuse: no query, no escape. */
const CALL_PATH = /^\/v1\/agents\/([^/?#%]+)\/calls$/;
const BEARER = /^Bearer\s+(\S+)$/i;
const LENGTH = /^[0-9]+$/;

/** What of the app's options (app.ts, AppOptions) the lane reads: its state, and what shapes a 200's headers. */
export interface DirectGateOptions {
  ctx?: AppContext;
  corsOrigins?: readonly string[];
  connectSources?: readonly string[];
  trustForwardedProto?: boolean;
}

/** Where a decision the lane made threw: the request handed on carries it, so the route throws it again. */
const LANE_FAILURE = Symbol('tollgate.laneFailure');

type LaneRequest = IncomingMessage & { rawBody?: Buffer; [LANE_FAILURE]?: { error: unknown } };

/**
 * The error a decision threw in the direct lane for this request, if it threw: the gate route throws it again
 * rather than decide the call a second time (its row and its counts written twice).
 */
export function laneFailure(env: unknown): { error: unknown } | undefined {
  const incoming = (env as { incoming?: LaneRequest } | undefined)?.incoming;
  return incoming?.[LANE_FAILURE];
}

/**
 * The 200's headers, over plain HTTP and over TLS, as a flat list node:http takes whole (the length added per
 * answer); where CORS origins are listed, an answer depends on Origin and says so, as cross-origin.ts has it say.
 */
function answerHeaders(options: DirectGateOptions, corsListed: boolean): { plain: string[]; overTls: string[] } {
  const { plain, overTls } = securityHeaderRecords(options.connectSources ?? []);
  const vary = corsListed ? ['vary', 'Origin'] : [];
  const flat = (record: HeaderRecord) => [...Object.entries(preparedJsonHeaders(record, NO_STORE)).flat(), ...vary];
  return { plain: flat(plain), overTls: flat(overTls) };
}

/**
 * A request listener answering the calls the lane takes and handing every other request to `app` (the app's
 * own listener, @hono/node-server's), or `app` itself where the lane never applies: no state (`options.ctx`).
 *
 * @example
 * createServer(directGate({ ctx }, getRequestListener(createApp({ ctx }).fetch)));
 */
export function directGate(options: DirectGateOptions, app: RequestListener): RequestListener {
  const ctx = options.ctx;
  if (!ctx) return app;
  // A page on a listed origin gets the CORS middleware's answer; an agent sends no Origin, and an unlisted one is
  // answered as if none were listed but for Vary (cross-origin.ts).
  const corsListed = listedOrigins(options.corsOrigins ?? []);
  const headers = answerHeaders(options, corsListed.size > 0);
  const trustForwardedProto = options.trustForwardedProto === true;
  // On a shared database a request's reads are numbered by arrival, as app.ts numbers every other request's.
  const arrived = ctx.state.kind === 'postgres' ? asArrived : <T>(serve: () => T) => serve();
  return function gateLane(req, res) {
    const taken = req.method === 'POST' ? takenCall(req) : undefined;
    if (!taken) return app(req, res);
    const origin = req.headers.origin;
    if (origin !== undefined && corsListed.has(origin)) return app(req, res);
    const tls = incomingOverTls(req, trustForwardedProto);
    arrived(() =>
      answerCall(ctx, req as LaneRequest, res, taken, tls ? headers.overTls : headers.plain, app).catch(() => {
        if (!res.headersSent) res.destroy();
      }),
    );
  };
}

/**
 * node:http's createServer with the lane before the app's listener, for @hono/node-server's `serve({ createServer })`:
 * the app's options are asked at each request until they are given (a server whose app is made once its port is
 * known); until then, and for good if they never are, every request goes to the app.
 *
 * @example
 * serve({ fetch: app.fetch, port, createServer: withDirectGate(() => options) });
 */
export function withDirectGate(optionsOf: () => DirectGateOptions | undefined): typeof createServer {
  return ((serverOptions: ServerOptions, app: RequestListener) => {
    let listener: RequestListener | undefined;
    return createServer(serverOptions, (req, res) => {
      if (!listener) {
        const options = optionsOf();
        if (!options) return app(req, res);
        listener = directGate(options, app);
      }
      return listener(req, res);
    });
  }) as typeof createServer;
}

/** The agent and the key of a call the lane takes, from its request line and headers alone; else undefined. */
function takenCall(req: IncomingMessage): { agent: string; key: string; length: number } | undefined {
  const path = CALL_PATH.exec(req.url ?? '');
  const agent = path?.[1];
  if (agent === undefined || agentNameIssues(agent) !== undefined) return undefined;
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined) return undefined;
  const stated = h['content-length'];
  if (stated === undefined || !LENGTH.test(stated)) return undefined;
  const length = Number(stated);
  if (length === 0 || length > MAX_REQUEST_BODY_BYTES) return undefined;
  const type = h['content-type'];
  if (type === undefined || !JSON_REQUEST.test(type)) return undefined;
  const key = BEARER.exec(h.authorization ?? '')?.[1];
  if (key === undefined || !isTollgateKey(key)) return undefined;
  return { agent, key, length };
}

async function answerCall(
  ctx: AppContext,
  req: LaneRequest,
  res: ServerResponse,
  call: { agent: string; key: string; length: number },
  headers: readonly string[],
  app: RequestListener,
): Promise<void> {
  const body = await bodyOf(req, call.length);
  // A request cut short has nobody left to answer.
  if (body === undefined) {
    res.destroy();
    return;
  }
  req.rawBody = body;
  let decided = false;
  try {
    const auth = await keyAuthentication(ctx, call.key);
    if (!auth || !('principal' in auth) || auth.principal.kind !== 'agent' || auth.principal.agent !== call.agent) return app(req, res);
    const text = utf8TextOf(body);
    const read = text === undefined ? undefined : readCallBody(text, { maxLength: MAX_REQUEST_BODY_BYTES, maxDepth: MAX_BODY_DEPTH });
    if (read === undefined || callBodyIssues(read.value) !== undefined) return app(req, res);
    const options = read.argumentsText === undefined ? undefined : { argumentsText: read.argumentsText };
    let answer: string;
    decided = true;
    try {
      // Its span continues the caller's traceparent, as the gate route's does (observability/tracing.ts).
      answer = JSON.stringify(
        await withIncomingHeaders(req.headers, () => decideAgentCall(ctx, call.agent, read.value as CallRequestBody, options)),
      );
    } catch (error) {
      req[LANE_FAILURE] = { error };
      return app(req, res);
    }
    answerAtTurnEnd(res, headers, answer);
  } catch {
    // Anything else the lane did not expect: before the decision the app serves the call as it serves any other, so
    // the failure costs the lane, never the answer; after it (its answer unwritable) the call is never decided again.
    if (!decided && !res.headersSent) app(req, res);
    else res.destroy();
  }
}

/** A body being read: its chunks so far, the length the request stated, and who waits for it. */
interface BodyRead {
  chunks: Buffer[];
  received: number;
  length: number;
  done: (body: Buffer | undefined) => void;
}

const BODY_READ = Symbol('tollgate.laneBody');
type ReadingRequest = IncomingMessage & { [BODY_READ]?: BodyRead | undefined };

/**
 * The body, whole, once it has come (node:http ends it at its stated length); undefined when the request is cut
 * short instead. The listeners are shared by every request (each finds its read on the request), so a call makes
 * no closures for them.
 */
function bodyOf(req: IncomingMessage, length: number): Promise<Buffer | undefined> {
  return new Promise((done) => {
    (req as ReadingRequest)[BODY_READ] = { chunks: [], received: 0, length, done };
    req.on('data', onBodyData);
    req.once('end', onBodyEnd);
    req.once('error', onBodyCut);
    req.once('close', onBodyClose);
  });
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const read = this[BODY_READ];
  if (!read) return;
  read.chunks.push(chunk);
  read.received += chunk.length;
}

function onBodyEnd(this: ReadingRequest): void {
  const read = this[BODY_READ];
  if (!read) return;
  const { chunks } = read;
  finishBody(this, read.received !== read.length ? undefined : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
}

function onBodyCut(this: ReadingRequest): void {
  finishBody(this, undefined);
}

function onBodyClose(this: ReadingRequest): void {
  if (!this.complete) finishBody(this, undefined);
}

function finishBody(req: ReadingRequest, body: Buffer | undefined): void {
  const read = req[BODY_READ];
  if (!read) return;
  req[BODY_READ] = undefined;
  req.off('data', onBodyData);
  req.off('end', onBodyEnd);
  req.off('error', onBodyCut);
  req.off('close', onBodyClose);
  read.done(body);
}
