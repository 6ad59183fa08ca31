// A plain API reference page rendered from the OpenAPI document.
type Doc = { paths?: Record<string, Record<string, { summary?: string; description?: string; tags?: string[] }>> };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

export function referencePage(doc: unknown): string {
  const paths = (doc as Doc).paths ?? {};
  const rows = Object.entries(paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(
        ([method, op]) =>
          `<tr><td><code>${method.toUpperCase()}</code></td><td><code>/v1${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}${op.description ? `<br><small>${escapeHtml(op.description)}</small>` : ''}</td></tr>`,
      ),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tollgate API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:960px;padding:0 1rem;color:#1f2430}td{padding:.4rem .6rem;border-bottom:1px solid #e4e7ee;vertical-align:top}code{font-size:13px}</style></head>
<body><h1>Tollgate API</h1><p>Every route but <code>/v1/health</code> needs <code>Authorization: Bearer KEY</code>. Errors are <code>{"error": {"code", "message", "details"?}}</code>. The machine-readable description is <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
<table><thead><tr><th>method</th><th>path</th><th>what</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}
