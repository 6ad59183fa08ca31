// Journey: signing in to the console through an OpenID Connect provider (docs/console.md, "Signing in"). The spec
// runs its own provider (oauth2-mock-server on loopback, which approves /authorize at once) and its own
// `tollgate serve --identity FILE` (port TOLLGATE_E2E_OIDC_PORT, else 4414) on a demo data folder of its own, so
// the config's server is untouched. The provider's access tokens name this Tollgate (aud) and the demo owner
// (email); their lifetime, a refusal at /authorize and a failed exchange are set per test through its hooks.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { OAuth2Server } from 'oauth2-mock-server';

const PORT = Number(process.env.TOLLGATE_E2E_OIDC_PORT ?? 4414);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DIR = mkdtempSync(join(tmpdir(), 'tollgate-e2e-oidc-'));
const MEMBER = 'olivia';

/** What the provider does on the next sign-in; each test sets what it needs. */
const next = {
  tokenSeconds: 300,
  /** The token response's expires_in when it is not to say tokenSeconds. */
  expiresIn: undefined as number | undefined,
  authorize: 'approve' as 'approve' | 'deny' | 'tamper-state',
  exchange: 'ok' as 'ok' | 'fail',
  /** The ID token without nbf, for a browser whose clock runs behind the provider's. */
  idTokenNbf: true,
};

let provider: OAuth2Server;
let issuer: string;
let server: ChildProcess | undefined;

const healthy = () =>
  fetch(`${ORIGIN}/v1/health`).then(
    (r) => r.ok,
    () => false,
  );

test.beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  issuer = provider.issuer.url as string;
  // The access token is the one signed without an aud (the ID token's aud is the client); it is made to name
  // this Tollgate and the member, and to last what the test asks.
  provider.service.on('beforeTokenSigning', (token) => {
    if (token.payload.aud !== undefined) {
      if (!next.idTokenNbf) delete token.payload.nbf;
      return;
    }
    token.payload.aud = ORIGIN;
    token.payload.email = MEMBER;
    token.payload.exp = Math.floor(Date.now() / 1000) + next.tokenSeconds;
  });
  provider.service.on('beforeResponse', (response) => {
    if (next.exchange === 'fail') {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant', error_description: 'the code was refused' };
      return;
    }
    (response.body as Record<string, unknown>).expires_in = next.expiresIn ?? next.tokenSeconds;
  });
  provider.service.on('beforeAuthorizeRedirect', (redirect) => {
    if (next.authorize === 'deny') {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'access_denied');
    }
    if (next.authorize === 'tamper-state') redirect.url.searchParams.set('state', 'not-the-one-sent');
  });

  const identity = join(DIR, 'identity.json');
  writeFileSync(
    identity,
    JSON.stringify({
      resource: ORIGIN,
      issuers: [{ issuer, member_claim: 'email', console: { client_id: 'tollgate-console', scopes: ['openid', 'email'] } }],
    }),
  );
  if (await healthy()) throw new Error(`port ${PORT} is taken by another server; set TOLLGATE_E2E_OIDC_PORT`);
  server = spawn(
    process.execPath,
    ['apps/api/bin/tollgate.cjs', 'serve', '--data', join(DIR, 'data'), '--demo', '--port', String(PORT), '--identity', identity],
    { cwd: REPO, stdio: 'ignore' },
  );
  const deadline = Date.now() + 15_000;
  while (!(await healthy())) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not start within 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
});

test.afterAll(async () => {
  const running = server;
  if (running !== undefined && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }
  if (provider?.listening) await provider.stop();
  rmSync(DIR, { recursive: true, force: true });
});

test.beforeEach(() => {
  Object.assign(next, { tokenSeconds: 300, expiresIn: undefined, authorize: 'approve', exchange: 'ok', idTokenNbf: true });
});

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

/** Collects the page's `securitypolicyviolation` events from its first script on (as security-headers.spec.ts does). */
async function watchPolicy(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations?.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
}

const violations = (page: Page) => page.evaluate(() => window.cspViolations ?? ['the collector is missing']);

/** Everything this origin keeps in the page's storage, and the browser's cookies for it. */
async function kept(page: Page): Promise<{ session: string[]; local: string[]; cookies: number }> {
  const stored = await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: Object.keys(localStorage) }));
  return { ...stored, cookies: (await page.context().cookies(ORIGIN)).length };
}

const signInButton = (page: Page) => page.getByRole('button', { name: `Sign in with ${new URL(issuer).host}` });

async function signInThroughProvider(page: Page): Promise<void> {
  await page.goto(`${ORIGIN}/#/documents`);
  await signInButton(page).click();
}

test('sign in through the provider, work as the member, sign out', async ({ page }) => {
  test.setTimeout(40_000);
  // The served policy lets the console's page reach the provider, and no other origin beyond its own.
  const csp = (await fetch(`${ORIGIN}/`)).headers.get('content-security-policy') ?? '';
  expect(csp).toContain(`connect-src 'self' ${new URL(issuer).origin}`);
  await watchPolicy(page);

  await signInThroughProvider(page);
  await expect(page.locator('.member-name')).toHaveText(MEMBER);
  // Back on the console's own address, the code spent; a page that needs the member works with the token.
  expect(page.url()).toBe(`${ORIGIN}/`);
  await expect(page.getByRole('list', { name: 'policy' })).toBeVisible();
  await page.goto(`${ORIGIN}/#/approvals`);
  await expect(page.getByRole('tab', { name: 'Pending' })).toBeVisible();
  await expect(page.locator('.member-name')).toHaveText(MEMBER);
  // The token is in this tab's sessionStorage only: no verifier left, nothing in localStorage, no cookie.
  expect(await kept(page)).toEqual({ session: ['tollgate.token-session'], local: [], cookies: 0 });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Member key')).toBeVisible();
  expect(await kept(page)).toEqual({ session: [], local: [], cookies: 0 });
  await page.reload();
  await expect(page.getByLabel('Member key')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  expect(await violations(page)).toEqual([]);
});

test('the session ends by itself when the token does', async ({ page }) => {
  test.setTimeout(30_000);
  next.tokenSeconds = 3;
  await watchPolicy(page);
  await signInThroughProvider(page);
  await expect(page.locator('.member-name')).toHaveText(MEMBER);
  await expect(page.getByText('Your session ended')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  expect(await kept(page)).toEqual({ session: [], local: [], cookies: 0 });
  await page.reload();
  await expect(page.getByLabel('Member key')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('a 401 TOKEN_EXPIRED from the server ends the session as its expiry does', async ({ page }) => {
  test.setTimeout(30_000);
  // The browser's clock runs two minutes behind: a token the server already holds expired (exp 40 s ago, past its
  // 30 s of skew) still looks current to the console, so only the server's 401 can end the session.
  next.tokenSeconds = -40;
  next.expiresIn = 300;
  next.idTokenNbf = false;
  await page.clock.install({ time: Date.now() - 120_000 });
  await watchPolicy(page);
  await signInThroughProvider(page);
  await expect(page.getByText('Your session ended')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  expect(await kept(page)).toEqual({ session: [], local: [], cookies: 0 });
  expect(await violations(page)).toEqual([]);
});

test("a provider's refusal, a tampered state and a failed exchange are shown, and nothing is kept", async ({ page }) => {
  test.setTimeout(40_000);
  await watchPolicy(page);
  const cases: { set: Partial<typeof next>; says: RegExp }[] = [
    { set: { authorize: 'deny' }, says: /refused the sign-in \(access_denied\)/ },
    { set: { authorize: 'tamper-state' }, says: /does not match the sign-in started here/ },
    { set: { exchange: 'fail' }, says: /did not give a token .*invalid_grant/ },
  ];
  for (const { set, says } of cases) {
    Object.assign(next, { authorize: 'approve', exchange: 'ok' }, set);
    await signInThroughProvider(page);
    await expect(page.getByRole('alert')).toHaveText(says);
    expect(page.url()).toBe(`${ORIGIN}/`);
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    expect(await kept(page)).toEqual({ session: [], local: [], cookies: 0 });
  }
  expect(await violations(page)).toEqual([]);
});
