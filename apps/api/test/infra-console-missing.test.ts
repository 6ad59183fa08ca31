// `tollgate serve` without a built console: every path outside /v1 answers a page saying how to build
// it (503, HTML, never cached), and /v1 keeps its JSON errors. Through the app's real HTTP interface.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';

function emptyDist(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'tollgate-web-')), 'dist');
  mkdirSync(dir);
  return dir;
}

describe('serve without a built console', () => {
  const app = createApp({ webDist: emptyDist() });

  it('answers / with a page that says the console is not built and how to build it', async () => {
    const r = await app.request('/');
    expect(r.status).toBe(503);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const page = await r.text();
    expect(page).toContain('The console is not built');
    expect(page).toContain('npm run build');
    expect(page).not.toContain('"error"');
  });

  it('answers every other path outside /v1 with the same page, HEAD included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.webPath(), async (raw) => {
        const path = raw.startsWith('/') ? raw : `/${raw}`;
        fc.pre(path !== '/v1' && !path.startsWith('/v1/'));
        const r = await app.request(path);
        expect(r.status, path).toBe(503);
        expect(await r.text(), path).toContain('npm run build');
      }),
      { numRuns: 60 },
    );
    const head = await app.request('/approvals', { method: 'HEAD' });
    expect(head.status).toBe(503);
  });

  it('keeps JSON on /v1: health answers, an unknown API path is a JSON 404', async () => {
    expect(await (await app.request('/v1/health')).json()).toEqual({ status: 'ok' });
    for (const path of ['/v1', '/v1/', '/v1/no-such-route']) {
      const r = await app.request(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type'), path).toMatch(/^application\/json/);
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(body.error.code, path).toMatch(/^[A-Z_]+$/);
    }
  });
});

describe('serve with a built console', () => {
  it('serves the console, not the page', async () => {
    const dist = emptyDist();
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Tollgate console</title>');
    const r = await createApp({ webDist: dist }).request('/');
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Tollgate console');
  });
});

describe('the API alone (no console folder given)', () => {
  it('answers paths outside /v1 with the JSON not-found error, as before', async () => {
    const r = await createApp().request('/');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
