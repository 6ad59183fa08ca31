// The web suite: the console's chunks by gzip size (initial vs lazy, the 200 KB budget of docs/performance.md) and the
// keystroke-to-marker latency of a 200-rule sheet in Debian's Chromium against a real `tollgate serve`.
/// <reference lib="dom" />

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { type Figure, median, quantile } from './measure.ts';
import { generatedCatalogue, generatedSheet } from './sheet.bench.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'apps/web/dist');
const SHEET_ID = 'sheets/bench.rules.yaml';
// The e2e specs hold this lock around their Chromium; the machine is shared, so the bench waits its turn.
const BROWSER_LOCK = '/tmp/tollgate-e2e.lock';
const WARMUPS = 6;
const RUNS = 30;
const OPENINGS = 5;

export async function runWebSuite(): Promise<{ figures: Figure[]; notes: string[] }> {
  const notes: string[] = [];
  // Under the lock from the build on: the e2e run rebuilds dist/ too, and serves it.
  const release = await acquireLock(BROWSER_LOCK);
  try {
    if (buildIsStale()) {
      notes.push('web: built apps/web for this run (the build was missing or older than its sources)');
      const built = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'ignore' });
      if (built.status !== 0) throw new Error('the console build failed: run `npm run build` to see why');
    }
    const { figures, lines } = chunkFigures();
    for (const line of lines) console.log(line);
    figures.push(...(await keystrokeFigures(notes)));
    return { figures, notes };
  } finally {
    release();
  }
}

/** True when dist/ has no build, or a source of the console or the engine changed after it was built. */
function buildIsStale(): boolean {
  const index = join(DIST, 'index.html');
  if (!existsSync(index)) return true;
  const builtAt = statSync(index).mtimeMs;
  const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/engine/src'];
  return sources.some((source) => newestChange(join(ROOT, source)) > builtAt);
}

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

interface Chunk {
  name: string;
  gzip: number;
  initial: boolean;
}

/** Every JS chunk in dist/assets with its gzip size; initial = loaded by index.html before any lazy import. */
export function readChunks(dist: string): Chunk[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?assets\/([^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  );
  const assets = join(dist, 'assets');
  const code = (name: string) => readFileSync(join(assets, name), 'utf8');
  // Static imports of an initial chunk are initial too; import("./x.js") stays lazy.
  const initial = new Set<string>();
  const visit = (name: string) => {
    if (initial.has(name) || !existsSync(join(assets, name))) return;
    initial.add(name);
    for (const m of code(name).matchAll(/\bimport\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g)) visit(m[1] as string);
  };
  for (const entry of entries) visit(entry);
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, gzip: gzipSync(readFileSync(join(assets, name)), { level: 9 }).length, initial: initial.has(name) }))
    .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
}

function chunkFigures(): { figures: Figure[]; lines: string[] } {
  const chunks = readChunks(DIST);
  const kb = (bytes: number) => bytes / 1024;
  const size = (figure: string, bytes: number): Figure => ({
    suite: 'web',
    figure,
    unit: 'KB gzip',
    median: kb(bytes),
    p95: kb(bytes),
    runs: 1,
  });
  const lines = ['web: console chunks (gzip -9)'];
  for (const c of chunks) lines.push(`  ${c.initial ? 'initial' : 'lazy   '}  ${kb(c.gzip).toFixed(1).padStart(7)} KB  ${c.name}`);
  const total = (initial: boolean) => chunks.filter((c) => c.initial === initial).reduce((sum, c) => sum + c.gzip, 0);
  return {
    figures: [
      size('console initial JS (gzip, budget 200 KB)', total(true)),
      size('console lazy JS, all chunks (gzip)', total(false)),
      // The hash changes with every build; the figure names the chunk without it.
      ...chunks.map((c) => size(`chunk ${c.name.replace(/-[\w-]{8}\.js$/, '.js')} (${c.initial ? 'initial' : 'lazy'})`, c.gzip)),
    ],
    lines,
  };
}

async function keystrokeFigures(notes: string[]): Promise<Figure[]> {
  const data = mkdtempSync(join(tmpdir(), 'tollgate-bench-web-'));
  const port = await freePort();
  const server = spawn(process.execPath, ['apps/api/bin/tollgate.cjs', 'serve', '--data', data, '--demo', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    await waitForHealth(base, server);
    const owner = readOwnerKey(data);
    const sheet = generatedSheet();
    await seedSheet(base, owner, sheet);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openEditor(page, base, owner);
    const lines = sheet.split('\n');
    // Lines in the first screen: Monaco draws markers only for the lines in view. The check covers all 200 rules.
    const actionLine = lines.indexOf('  - action: tool_3') + 1;
    const neverLine = lines.indexOf('    never: true') + 1;
    const lint = await measureToggles(page, actionLine, 'End', '.squiggly-warning');
    const refusal = await measureToggles(page, neverLine, 'Home', '.squiggly-error');
    const form = await measureRulesForm(page, base, sheet);
    notes.push(
      `web: ${RUNS} keystrokes after ${WARMUPS} warm-ups each, typing and deleting one character in a 200-rule sheet (300-tool catalogue), 1280x800`,
    );
    const figure = (name: string, values: number[]): Figure => ({
      suite: 'web',
      figure: name,
      unit: 'ms',
      median: median(values),
      p95: quantile(values, 0.95),
      runs: values.length,
    });
    return [
      figure('keystroke -> check current, 200-rule sheet (lint)', lint.checked),
      figure('keystroke -> marker drawn, 200-rule sheet (lint, budget 50 ms)', lint.marked),
      figure('keystroke -> check current, 200-rule sheet (refusal)', refusal.checked),
      figure('keystroke -> marker drawn, 200-rule sheet (refusal)', refusal.marked),
      figure('Rules page: open, 200-rule sheet -> every row in the page', form.opened),
      figure('Rules page: keystroke in a field -> character shown, 200-rule sheet', form.shown),
    ];
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(data, { recursive: true, force: true });
  }
}

/** The demo catalogue plus 300 generated tools, then the 200-rule sheet over them, through the edit route. */
async function seedSheet(base: string, key: string, sheet: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const running = (await (await fetch(`${base}/v1/documents/catalogue.yaml`, { headers })).json()) as {
    text: string;
    version: { sequence: number };
  };
  const catalogue = running.text + generatedCatalogue().replace(/^tools:\n/, '');
  const edits: [string, string, number | null][] = [
    ['catalogue.yaml', catalogue, running.version.sequence],
    [SHEET_ID, sheet, null],
  ];
  for (const [id, content, basedOn] of edits) {
    const response = await fetch(`${base}/v1/documents/${encodeURIComponent(id)}/edits`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content, reason: 'web benchmark', based_on: basedOn }),
    });
    const outcome = (await response.json()) as { status?: string };
    if (outcome.status !== 'applied') throw new Error(`the benchmark's ${id} was not applied: ${JSON.stringify(outcome).slice(0, 300)}`);
  }
}

async function openEditor(page: Page, base: string, key: string): Promise<void> {
  // tsx keeps function names with a __name helper; the functions this file runs in the page need it there too.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.goto(`${base}/#/documents`);
  await page.getByLabel('Member key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.goto(`${base}/#/edit/${encodeURIComponent(SHEET_ID)}`);
  await page.locator('.code-editor-host .view-line').first().waitFor();
  await page.waitForFunction(() => {
    const editor = document.querySelector('.document-editor');
    const checked = editor?.getAttribute('data-checked-version');
    return checked !== '0' && checked === editor?.getAttribute('data-text-version');
  });
  await page.evaluate(() => {
    // The keydown's own timestamp: when the browser took the key, before Monaco or React ran.
    const w = window as unknown as { keydownAt: number };
    document.addEventListener('keydown', (event) => (w.keydownAt = event.timeStamp), true);
  });
}

/**
 * Goes to `line`, to its `edge` (Home or End), then types and deletes one character, alternately, measuring
 * each keystroke to the check of the new text and to the change of the `marker` count in the editor.
 */
async function measureToggles(
  page: Page,
  line: number,
  edge: 'Home' | 'End',
  marker: string,
): Promise<{ checked: number[]; marked: number[] }> {
  await page.locator('.code-editor-host .view-line').first().click();
  // The console's Monaco has no go-to-line command (editor.api without contributions): walk down instead.
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press(edge);
  const checked: number[] = [];
  const marked: number[] = [];
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    await page.evaluate(armWatch, marker);
    await page.keyboard.press(i % 2 === 0 ? 'x' : 'Backspace');
    const t = await page.evaluate(() => (window as unknown as { watched: Promise<{ checked: number; marked: number }> }).watched);
    if (i >= WARMUPS) {
      checked.push(t.checked);
      marked.push(t.marked);
    }
    await page.waitForTimeout(120); // a typist's pace, so each keystroke starts from an idle page
  }
  return { checked, marked };
}

/**
 * The Rules page over the same sheet: types and deletes a digit in a rule's At most field, alternately,
 * measuring each keystroke to the first frame that shows the field's new value (the form writes the YAML,
 * reads its rows back and re-renders before the character appears).
 */
async function measureRulesForm(page: Page, base: string, sheet: string): Promise<{ opened: number[]; shown: number[] }> {
  // Opening the page: from the route's change to the last rule's row in the document, five times.
  const opened: number[] = [];
  for (let i = 0; i < 1 + OPENINGS; i++) {
    await page.goto(`${base}/#/documents`);
    await page.getByRole('heading', { name: 'Documents' }).first().waitFor();
    const start = Date.now();
    await page.goto(`${base}/#/rules/${encodeURIComponent(SHEET_ID)}`);
    await page.waitForFunction(() => document.querySelectorAll('fieldset.rules-row').length >= 200, undefined, { polling: 'raf' });
    if (i > 0) opened.push(Date.now() - start); // the first opening loads the page's chunks and warms up
  }
  await page.getByRole('heading', { name: `Rules of ${SHEET_ID}` }).waitFor();
  // The first rule with an at_most, counted as the form numbers rules (from 1).
  const rules = sheet.split('\n  - action: ').slice(1);
  const number = rules.findIndex((rule) => rule.includes('\n    at_most: ')) + 1;
  const input = page.getByRole('group', { name: new RegExp(`^Rule ${number} `) }).getByLabel('At most', { exact: true });
  await input.click();
  await page.keyboard.press('End');
  const shown: number[] = [];
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    await input.evaluate((element) => {
      const field = element as HTMLInputElement;
      const w = window as unknown as { keydownAt: number; shown: Promise<number> };
      const before = field.value;
      w.keydownAt = Number.NaN;
      w.shown = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the field did not change within 10 s')), 10_000);
        const tick = () => {
          if (field.value !== before && !Number.isNaN(w.keydownAt)) {
            clearTimeout(timer);
            resolve(performance.now() - w.keydownAt);
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
    });
    await page.keyboard.press(i % 2 === 0 ? '5' : 'Backspace');
    const t = await page.evaluate(() => (window as unknown as { shown: Promise<number> }).shown);
    if (i >= WARMUPS) shown.push(t);
    await page.waitForTimeout(120);
  }
  return { opened, shown };
}

/** Runs in the page: resolves `window.watched` with the times from the next keydown to the check and the marker. */
function armWatch(marker: string): void {
  const w = window as unknown as { keydownAt: number; watched: Promise<{ checked: number; marked: number }> };
  const host = document.querySelector('.code-editor-host') as HTMLElement;
  const editor = document.querySelector('.document-editor') as HTMLElement;
  const count = () => host.querySelectorAll(marker).length;
  const before = { count: count(), version: editor.dataset.checkedVersion };
  w.keydownAt = Number.NaN;
  w.watched = new Promise((resolve, reject) => {
    let checkedAt: number | undefined;
    let markedAt: number | undefined;
    const observer = new MutationObserver(() => {
      const now = performance.now();
      const current = editor.dataset.checkedVersion === editor.dataset.textVersion && editor.dataset.checkedVersion !== before.version;
      if (checkedAt === undefined && current) checkedAt = now;
      if (markedAt === undefined && count() !== before.count) markedAt = now;
      if (checkedAt !== undefined && markedAt !== undefined) {
        observer.disconnect();
        clearTimeout(timer);
        resolve({ checked: checkedAt - w.keydownAt, marked: markedAt - w.keydownAt });
      }
    });
    observer.observe(editor, { subtree: true, childList: true, attributes: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`no ${marker} change within 10 s`));
    }, 10_000);
  });
}

function readOwnerKey(data: string): string {
  const keys = JSON.parse(readFileSync(join(data, 'demo-keys.json'), 'utf8')) as { members: { role: string; key: string }[] };
  const owner = keys.members.find((m) => m.role === 'owner');
  if (!owner) throw new Error('the demo has no owner');
  return owner.key;
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`tollgate serve exited: ${stderr.slice(-500)}`);
    try {
      if ((await fetch(`${base}/v1/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`tollgate serve did not answer within 60 s: ${stderr.slice(-500)}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Holds `path` with flock(1) until the returned function is called: flock runs `cat`, which lives as long as
 * our stdin pipe, so the lock goes when we release it or when this process dies.
 */
function acquireLock(path: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const holder = spawn('flock', [path, 'sh', '-c', 'echo locked; exec cat'], { stdio: ['pipe', 'pipe', 'ignore'] });
    holder.once('error', reject);
    holder.stdout.once('data', () => resolve(() => holder.stdin.end()));
  });
}
