// What `tollgate serve` answers outside /v1 when the console has not been built (apps/web/dist holds no
// index.html): a short page saying how to build it, instead of an API error a person cannot act on. 503,
// because the server cannot serve the console until it is built (a probe of `/` must not take it for a
// working console), with no Retry-After (waiting does not build it) and never cached (docs/cli.md, "serve").
import type { Context } from 'hono';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tollgate: the console is not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2328}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}</style>
</head>
<body>
<h1>The console is not built</h1>
<p>This Tollgate server answers its API under <a href="/v1/health"><code>/v1</code></a>
(reference: <a href="/v1/reference"><code>/v1/reference</code></a>), but the console it serves has not been
built: <code>apps/web/dist</code> holds no <code>index.html</code>.</p>
<p>Build it in the repository with <code>npm run build</code>, then start <code>tollgate serve</code> again.
(<code>npm start</code> builds it when it is missing.)</p>
</body>
</html>
`;

/** Answers a path outside /v1 with the page; a /v1 path no route answers gets the app's own not-found error. */
export function consoleMissingPage(c: Context): Response | Promise<Response> {
  if (c.req.path === '/v1' || c.req.path.startsWith('/v1/')) return c.notFound();
  return c.html(PAGE, 503, { 'Cache-Control': 'no-store' });
}
