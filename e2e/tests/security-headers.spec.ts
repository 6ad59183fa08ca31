// Journey: the console under its Content-Security-Policy (docs/security.md, "Headers and cross-origin requests").
// A page on another origin that frames the console gets no console in its frame (frame-ancestors 'none'), and
// every page of the console, Monaco's editors, diffs and workers included, runs with no violation of the policy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { MONACO_MS, storeTwoVersions } from './console-states.ts';
import { memberKey, signIn } from './demo.ts';

const SHEET = encodeURIComponent('sheets/support.rules.yaml');
const RULESET = encodeURIComponent('rulesets/support.ruleset.json');
const MONACO = { timeout: 30_000 };

/** Each page of the console and what shows once it has settled, with `policy` the id of a policy in two versions. */
const pages = (policy: string): { hash: string; settled: (page: Page) => Promise<void> }[] => [
  { hash: '#/documents', settled: (p) => expect(p.getByRole('list', { name: 'policy' })).toBeVisible() },
  { hash: `#/documents/${policy}`, settled: (p) => expect(p.getByRole('link', { name: 'Edit' })).toBeVisible() },
  { hash: `#/edit/${policy}`, settled: (p) => expect(p.locator('.document-editor .monaco-editor')).toBeVisible(MONACO) },
  { hash: `#/history/${policy}`, settled: (p) => expect(p.locator('.monaco-diff-editor').first()).toBeVisible(MONACO) },
  { hash: `#/edit/${SHEET}`, settled: (p) => expect(p.locator('.document-editor .monaco-editor')).toBeVisible(MONACO) },
  { hash: `#/rules/${SHEET}`, settled: (p) => expect(p.locator('.rules-yaml .monaco-editor')).toBeVisible(MONACO) },
  { hash: '#/approvals', settled: (p) => expect(p.getByRole('tab', { name: 'Pending' })).toBeVisible() },
  { hash: '#/approvals/decided', settled: (p) => expect(p.getByRole('tab', { name: 'Decided' })).toBeVisible() },
  { hash: '#/playground', settled: (p) => expect(p.locator('.code-editor-host .monaco-editor')).toBeVisible({ timeout: MONACO_MS }) },
  { hash: '#/simulation', settled: (p) => expect(p.getByRole('button', { name: 'Run' })).toBeVisible() },
  // The demo has recorded nothing when this journey runs alone: the page's empty state (decisions-page.spec.ts has rows).
  { hash: '#/decisions', settled: (p) => expect(p.getByRole('region', { name: 'Decisions', exact: true })).toBeVisible() },
  { hash: '#/upstreams', settled: (p) => expect(p.locator('#upstreams-heading')).toBeVisible() },
  { hash: '#/templates', settled: (p) => expect(p.locator('#templates-heading')).toBeVisible() },
  { hash: '#/rulesets', settled: (p) => expect(p.getByRole('link', { name: 'Support', exact: true })).toBeVisible() },
  { hash: `#/rulesets/${RULESET}`, settled: (p) => expect(p.locator('#set-versions-heading')).toBeVisible() },
  { hash: '#/gateways', settled: (p) => expect(p.locator('#gateways-heading')).toBeVisible() },
  { hash: '#/members', settled: (p) => expect(p.getByRole('table', { name: 'Keys, oldest first' })).toBeVisible() },
];

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

/** Collects the page's `securitypolicyviolation` events, from the first script on, and CSP messages of its console. */
async function watchPolicy(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations?.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const messages: string[] = [];
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) messages.push(`${message.type()}: ${message.text()}`);
  });
  return messages;
}

const violations = (page: Page) => page.evaluate(() => window.cspViolations ?? ['the collector is missing']);

test.describe('the console under its Content-Security-Policy', () => {
  let framing: Server;
  let framingUrl: string;

  test.beforeAll(async ({ baseURL }) => {
    // Another origin (another port on loopback) whose page frames the console's sign-in page.
    framing = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>elsewhere</title><iframe title="console" src="${baseURL}/#/approvals"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
    framingUrl = `http://127.0.0.1:${(framing.address() as AddressInfo).port}/`;
  });

  test.afterAll(async () => {
    await new Promise<void>((resolve) => framing.close(() => resolve()));
  });

  test('a page on another origin cannot frame the console', async ({ page }) => {
    const messages = await watchPolicy(page);
    const refusal = page.waitForEvent('console', { predicate: (m) => /frame-ancestors/.test(m.text()), timeout: 15_000 });
    await page.goto(framingUrl);
    await expect(page.locator('iframe')).toBeAttached();
    // Chromium refuses the frame and says so in the framing page's console.
    expect((await refusal).text()).toContain("frame-ancestors 'none'");
    expect(messages.join('\n')).toContain('frame-ancestors');
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame, 'the iframe has a frame').toBeDefined();
    // Nothing of the console runs or shows in it: no sign-in form, no approvals, not the console's address.
    expect(frame?.url()).not.toContain('#/approvals');
    await expect(page.frameLocator('iframe').getByLabel('Member key')).toHaveCount(0);
    await expect(page.frameLocator('iframe').getByRole('button', { name: /approve/i })).toHaveCount(0);
  });

  test('every page, Monaco and its workers included, runs with no violation', async ({ page, request }) => {
    test.setTimeout(240_000);
    const { id } = await storeTwoVersions(request, 'security-headers');
    const messages = await watchPolicy(page);
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));

    const first = await page.goto('/#/documents');
    expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(first?.headers()['content-security-policy']).not.toContain('unsafe-eval');
    await signIn(page, memberKey('owner'));
    for (const { hash, settled } of pages(encodeURIComponent(id))) {
      await page.goto(`/${hash}`);
      await settled(page);
      // Monaco's styles, fonts and workers, and the page's queries, arrive within a moment of the page showing.
      await page.waitForTimeout(750);
      expect(await violations(page), `violations after ${hash}`).toEqual([]);
      expect(messages, `CSP messages after ${hash}`).toEqual([]);
    }

    // The policy editor again, until Monaco's JSON worker and editor worker run and the live check has answered.
    await page.goto(`/#/edit/${encodeURIComponent(id)}`);
    const editor = page.locator('.document-editor');
    await expect(editor.locator('.monaco-editor')).toBeVisible(MONACO);
    await expect(editor).toHaveAttribute('data-checked-version', /\d+/, MONACO);
    await expect.poll(() => workers.some((url) => /json\.worker/.test(url)), MONACO).toBe(true);
    await expect.poll(() => workers.some((url) => /editor\.worker/.test(url)), MONACO).toBe(true);
    for (const worker of page.workers()) expect(await worker.evaluate(() => 6 * 7)).toBe(42);
    // Monaco's codicon font and its inlined images are in use by now; nothing was refused for them.
    await page.waitForTimeout(750);
    expect(await violations(page), 'violations in the editor').toEqual([]);
    expect(messages, 'CSP messages in the editor').toEqual([]);

    // The collector does see what the policy refuses: an inline script is one.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    });
    await expect.poll(async () => (await violations(page)).join('\n')).toMatch(/^script-src-elem blocked inline/);
    expect(await page.evaluate(() => (window as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
  });
});
