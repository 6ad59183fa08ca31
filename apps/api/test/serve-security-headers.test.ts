// Every answer's security headers and the CORS allowlist, over real HTTP and HTTPS on loopback
// (server/security-headers.ts, server/cross-origin.ts; docs/security.md, "Headers and cross-origin requests"):
// console pages, assets, /v1 answers and refusals, /mcp, /metrics, not-found; HSTS only over TLS or from a trusted
// proxy; Access-Control-Allow-Origin only ever for a listed origin; serve's --cors-origin refusing what is not one.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { seedDemo } from '../src/server/demo.ts';
import { contentSecurityPolicy, HSTS, securityHeaders } from '../src/server/security-headers.ts';
import { openContext, type SqliteAppContext } from '../src/server/sqlite-context.ts';
import { runCli, withEnv } from './cli-harness.ts';
import { readDemoKeys } from './server-harness.ts';

const LISTED = 'https://ops.example.com';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

let dataDir: string;
let distDir: string;
let tlsDir: string;
let ctx: SqliteAppContext;
let admin: string;
let agent: string;
let cert: string;
const closers: (() => Promise<void>)[] = [];
/** The app without options, the one with a listed origin and a trusted proxy, the same over TLS, one without a console. */
const at: Record<'plain' | 'listed' | 'tls' | 'unbuilt', string> = { plain: '', listed: '', tls: '', unbuilt: '' };

function listen(app: ReturnType<typeof createApp>, tls?: { key: string; cert: string }): Promise<string> {
  return new Promise((resolve) => {
    const server = tls
      ? serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0, createServer: createHttpsServer, serverOptions: tls }, (info) =>
          resolve(`https://127.0.0.1:${info.port}`),
        )
      : serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        );
    closers.push(() => new Promise<void>((done) => server.close(() => done())));
  });
}

/** The app with one more route, which fails as a bug would, so the error handler's 500 is among the answers. */
function failing(app: ReturnType<typeof createApp>): ReturnType<typeof createApp> {
  app.post('/test-only/fails', () => {
    throw new Error('a bug');
  });
  return app;
}

/** `headers` with the demo admin's key where everyKind() wrote ADMIN. */
function keyed(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('ADMIN', admin)]));
}

/** One request by node:http(s), which sends `Origin` as given (fetch would not let a page choose it). */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const url = new URL(path, base);
  const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = make(url, { method, headers, ...(url.protocol === 'https:' ? { ca: cert } : {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tollgate-headers-'));
  distDir = mkdtempSync(join(tmpdir(), 'tollgate-headers-dist-'));
  tlsDir = mkdtempSync(join(tmpdir(), 'tollgate-headers-tls-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(distDir, 'assets', 'app.js'), 'document.title = "console";\n');
  // A self-signed certificate for 127.0.0.1, made for this run only.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(tlsDir, 'key.pem'),
      '-out',
      join(tlsDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(tlsDir, 'cert.pem'), 'utf8');
  const key = readFileSync(join(tlsDir, 'key.pem'), 'utf8');
  ctx = await openContext(dataDir, { watch: false });
  await seedDemo(ctx);
  admin = readDemoKeys(dataDir).members.find((m) => m.role === 'admin')?.key as string;
  agent = readDemoKeys(dataDir).agents[0]?.key as string;
  at.plain = await listen(failing(createApp({ ctx, webDist: distDir })));
  const listed = createApp({ ctx, webDist: distDir, corsOrigins: [LISTED], trustForwardedProto: true });
  at.listed = await listen(listed);
  at.tls = await listen(failing(createApp({ ctx, webDist: distDir })), { key, cert });
  at.unbuilt = await listen(createApp({ ctx, webDist: join(distDir, 'assets') }));
}, 60_000);

afterAll(async () => {
  for (const close of closers) await close();
  await ctx?.close();
  for (const d of [dataDir, distDir, tlsDir]) rmSync(d, { recursive: true, force: true });
});

/** The answers of every kind, each with the status that says it is the kind it claims to be. */
function everyKind(): [string, string, string, Record<string, string>, string | undefined, number][] {
  // The key is read when the test runs (keyed() below): it.each lists the cases before beforeAll seeds the demo.
  const key = { authorization: 'Bearer ADMIN' };
  const json = { ...key, 'content-type': 'application/json' };
  return [
    ['the console page', 'GET', '/', {}, undefined, 200],
    ['a client-side route of the console', 'GET', '/approvals', {}, undefined, 200],
    ['a console asset', 'GET', '/assets/app.js', {}, undefined, 200],
    ['health', 'GET', '/v1/health', {}, undefined, 200],
    ['the OpenAPI document', 'GET', '/v1/openapi.json', {}, undefined, 200],
    ['the reference page', 'GET', '/v1/reference', {}, undefined, 200],
    ['a keyed route', 'GET', '/v1/documents', key, undefined, 200],
    ['a refusal without a key', 'GET', '/v1/documents', {}, undefined, 401],
    ['a body that is not JSON', 'POST', '/v1/rule-sheets/compile', json, '{"yaml": ', 400],
    ['a /v1 path no route answers', 'GET', '/v1/no-such-route', key, undefined, 404],
    ['a method no route answers', 'DELETE', '/v1/health', key, undefined, 404],
    ['a failure of the server', 'POST', '/test-only/fails', {}, undefined, 500],
    ['/mcp without a key', 'POST', '/mcp', { 'content-type': 'application/json' }, '{}', 401],
    ['/metrics', 'GET', '/metrics', key, undefined, 200],
    ['/metrics without a key', 'GET', '/metrics', {}, undefined, 401],
  ];
}

function expectSecurityHeaders(a: Answer, what: string): void {
  expect(a.headers['content-security-policy'], what).toBe(contentSecurityPolicy());
  expect(a.headers['x-frame-options'], what).toBe('DENY');
  expect(a.headers['x-content-type-options'], what).toBe('nosniff');
  expect(a.headers['referrer-policy'], what).toBe('no-referrer');
  expect(a.headers['cross-origin-opener-policy'], what).toBe('same-origin');
}

describe('security headers', () => {
  it('the policy lets the console run only its own code, never framed, and names each source', () => {
    const directives = new Map(
      contentSecurityPolicy()
        .split('; ')
        .map((d) => [d.split(' ')[0] as string, d.split(' ').slice(1).join(' ')]),
    );
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'font-src': "'self'",
      'worker-src': "'self'",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
      'object-src': "'none'",
      'form-action': "'self'",
    });
    expect(contentSecurityPolicy()).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy([LISTED, 'https://idp.example.com:8443'])).toContain(
      "connect-src 'self' https://ops.example.com https://idp.example.com:8443;",
    );
  });

  it.each(everyKind())('%s (%s %s) carries them', async (what, method, path, headers, body, status) => {
    const a = await send(at.plain, method, path, keyed(headers), body);
    expect(a.status, `${what}: ${a.text.slice(0, 200)}`).toBe(status);
    expectSecurityHeaders(a, what);
    expect(a.headers['strict-transport-security'], what).toBeUndefined();
    expect(a.headers['access-control-allow-origin'], what).toBeUndefined();
  });

  it('the page saying the console is not built, and the app without a data folder, carry them', async () => {
    const unbuilt = await send(at.unbuilt, 'GET', '/');
    expect(unbuilt.status).toBe(503);
    expectSecurityHeaders(unbuilt, 'console not built');
    const bare = createApp();
    const res = await bare.request('/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('connectSources must be origins, checked when the middleware is made', () => {
    expect(() => securityHeaders({ connectSources: ['https://idp.example.com/'] })).toThrow(/scheme:\/\/host\[:port\]/);
    expect(() => securityHeaders({ connectSources: ['https://idp.example.com'] })).not.toThrow();
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent over TLS, on every kind of answer', async () => {
    for (const [what, method, path, headers, body, status] of everyKind()) {
      const a = await send(at.tls, method, path, keyed(headers), body);
      expect(a.status, what).toBe(status);
      expect(a.headers['strict-transport-security'], what).toBe(HSTS);
      expectSecurityHeaders(a, what);
    }
  });

  it('is never sent over plain HTTP, whatever X-Forwarded-Proto says, unless the proxy is trusted', async () => {
    expect((await send(at.plain, 'GET', '/v1/health')).headers['strict-transport-security']).toBeUndefined();
    const claimed = await send(at.plain, 'GET', '/v1/health', { 'x-forwarded-proto': 'https' });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    // A client naming an https URL in the request line is still on a plain socket.
    const absolute = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const { hostname, port } = new URL(at.plain);
      const req = httpRequest({ hostname, port, path: `https://${hostname}:${port}/v1/health` }, (res) => {
        res.resume();
        resolve(res.headers);
      });
      req.on('error', reject);
      req.end();
    });
    expect(absolute['content-security-policy']).toBe(contentSecurityPolicy());
    expect(absolute['strict-transport-security']).toBeUndefined();
    const trusted = await send(at.listed, 'GET', '/v1/health', { 'x-forwarded-proto': 'https' });
    expect(trusted.headers['strict-transport-security']).toBe(HSTS);
    // The first value is the proxy nearest the client's; http there is plain HTTP.
    const chained = await send(at.listed, 'GET', '/v1/health', { 'x-forwarded-proto': 'http, https' });
    expect(chained.headers['strict-transport-security']).toBeUndefined();
    expect((await send(at.listed, 'GET', '/v1/health')).headers['strict-transport-security']).toBeUndefined();
  });
});

describe("the gate's answer, prepared with its headers (answer-headers.ts)", () => {
  /** Every header but the ones that change per answer, in the order sent. */
  const lasting = (a: Answer) => Object.entries(a.headers).filter(([name]) => !['content-length', 'date'].includes(name));
  const call = JSON.stringify({ tool: 'issue_refund', arguments: { amount: '50' } });

  it('carries the headers and values of every other answer of its route, over HTTP and TLS, with or without CORS', async () => {
    for (const [base, extra] of [
      [at.plain, {}],
      [at.tls, {}],
      [at.listed, {}],
      [at.listed, { origin: LISTED }],
      [at.listed, { 'x-forwarded-proto': 'https' }],
    ] as const) {
      const headers = { 'content-type': 'application/json', ...extra };
      const decided = await send(base, 'POST', '/v1/agents/support-bot/calls', { ...headers, authorization: `Bearer ${agent}` }, call);
      expect(decided.status, base).toBe(200);
      expect(JSON.parse(decided.text).decision).toBe('allow');
      // The same route answering through c.json: a member's key is refused there.
      const refused = await send(base, 'POST', '/v1/agents/support-bot/calls', { ...headers, authorization: `Bearer ${admin}` }, call);
      expect(refused.status, base).toBe(403);
      expect(lasting(decided), base).toEqual(lasting(refused));
      expect(decided.headers['content-length']).toBe(String(Buffer.byteLength(decided.text)));
      expect(decided.headers['cache-control']).toBe('no-store');
      expectSecurityHeaders(decided, base);
    }
  });
});

describe('CORS', () => {
  const preflight = (origin: string) => ({
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type',
  });

  it('with no origin listed, no answer carries Access-Control-Allow-Origin, a preflight included', async () => {
    for (const path of ['/v1/health', '/v1/documents', '/mcp', '/']) {
      const get = await send(at.plain, 'GET', path, { origin: LISTED, authorization: `Bearer ${admin}` });
      expect(get.headers['access-control-allow-origin'], path).toBeUndefined();
      const pre = await send(at.plain, 'OPTIONS', path, preflight(LISTED));
      expect(pre.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(pre.headers['access-control-allow-methods'], path).toBeUndefined();
    }
  });

  it('a listed origin may call the API: the answer and its preflight name it, credentials never allowed', async () => {
    const pre = await send(at.listed, 'OPTIONS', '/v1/documents', preflight(LISTED));
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(LISTED);
    expect(pre.headers['access-control-allow-methods']?.split(',')).toContain('POST');
    expect(pre.headers['access-control-allow-headers']?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'if-match']),
    );
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    expectSecurityHeaders(pre, 'preflight');
    const get = await send(at.listed, 'GET', '/v1/documents', { origin: LISTED, authorization: `Bearer ${admin}` });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe(LISTED);
    expect(get.headers['access-control-expose-headers']).toContain('ETag');
    expect(get.headers.vary).toContain('Origin');
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
    expectSecurityHeaders(get, 'cross-origin GET');
    const refused = await send(at.listed, 'GET', '/v1/documents', { origin: LISTED });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(LISTED);
  });

  it('an origin that is not exactly a listed one is never named, nor its preflight answered', async () => {
    for (const origin of [
      'https://evil.example',
      'https://ops.example.com.evil.example',
      'http://ops.example.com',
      'https://ops.example.com:8443',
      'https://OPS.example.com',
      `${LISTED}/`,
      'null',
    ]) {
      const get = await send(at.listed, 'GET', '/v1/health', { origin });
      expect(get.status, origin).toBe(200);
      expect(get.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(get.headers.vary, origin).toContain('Origin');
      const pre = await send(at.listed, 'OPTIONS', '/v1/documents', preflight(origin));
      expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(pre.headers['access-control-allow-methods'], origin).toBeUndefined();
    }
  });
});

describe('tollgate serve --cors-origin', () => {
  const BAD: [string, RegExp][] = [
    ['https://ops.example.com/', /as a browser sends it, https:\/\/ops\.example\.com;/],
    ['https://Ops.example.com', /as a browser sends it, https:\/\/ops\.example\.com;/],
    ['https://ops.example.com:443', /as a browser sends it, https:\/\/ops\.example\.com;/],
    ['https://ops.example.com/console', /as a browser sends it/],
    ['https://ops.example.com?x=1', /as a browser sends it/],
    ['https://user:pw@ops.example.com', /no user or password/],
    ['ftp://ops.example.com', /http:\/\/ or https:\/\//],
    ['ops.example.com', /not an origin/],
    ['*', /not an origin/],
    ['null', /not an origin/],
    ['', /not an origin/],
  ];

  it.each(BAD)('refuses %j as a usage error before it opens anything', async (origin, reason) => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-cors-flag-'));
    try {
      const run = await runCli('serve', '--data', join(dir, 'data'), '--port', '0', '--cors-origin', LISTED, '--cors-origin', origin);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--cors-origin: /);
      expect(run.stderr).toMatch(reason);
      expect(run.stderr).toMatch(/usage: tollgate serve/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads TOLLGATE_CORS_ORIGINS and TOLLGATE_TRUST_FORWARDED_PROTO the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-cors-env-'));
    try {
      const env = await withEnv('TOLLGATE_CORS_ORIGINS', `${LISTED}, https://ops.example.com/`, () =>
        runCli('serve', '--data', join(dir, 'data'), '--port', '0'),
      );
      expect(env.code).toBe(2);
      expect(env.stderr).toContain('TOLLGATE_CORS_ORIGINS: an origin is scheme://host[:port] as a browser sends it');
      const proto = await withEnv('TOLLGATE_TRUST_FORWARDED_PROTO', 'yes', () =>
        runCli('serve', '--data', join(dir, 'data'), '--port', '0'),
      );
      expect(proto.code).toBe(2);
      expect(proto.stderr).toContain('TOLLGATE_TRUST_FORWARDED_PROTO is 1 or 0, got yes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
