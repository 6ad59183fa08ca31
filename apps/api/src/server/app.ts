// The Hono app: health now; the stores, the gate and approvals arrive with issue 5. Serves the built console.
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { Hono } from 'hono';
import { ruleSheets } from './rule-sheets.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface AppOptions {
  /** The built console (apps/web/dist); without it only the API answers. */
  webDist?: string;
}

/** Builds the app. */
export function createApp(options: AppOptions = {}): Hono {
  const app = new Hono();
  app.get('/v1/health', (c) => c.json({ status: 'ok' }));
  app.route('/v1/rule-sheets', ruleSheets);
  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: `no route for ${c.req.method} ${c.req.path}` } }, 404));
  app.onError((_err, c) => c.json({ error: { code: 'INTERNAL', message: 'the server could not answer this request' } }, 500));
  const dist = options.webDist;
  if (dist && existsSync(join(dist, 'index.html'))) {
    app.get('*', (c) => {
      const path = c.req.path === '/' ? '/index.html' : c.req.path;
      const file = normalize(join(dist, path));
      // Never serve outside the dist folder; unknown paths get the app shell (client-side routes).
      const target = file.startsWith(dist + sep) && existsSync(file) && !file.endsWith(sep) ? file : join(dist, 'index.html');
      const ext = target.slice(target.lastIndexOf('.'));
      try {
        return c.body(readFileSync(target), 200, { 'content-type': TYPES[ext] ?? 'application/octet-stream' });
      } catch {
        return c.body(readFileSync(join(dist, 'index.html')), 200, { 'content-type': TYPES['.html'] as string });
      }
    });
  }
  return app;
}
