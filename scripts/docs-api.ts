// npm run docs: rewrites the route table of docs/api.md from the OpenAPI document the app serves at
// GET /v1/openapi.json (built on a temporary data folder, so the table lists every route).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../apps/api/src/server/app.ts';
import { openContext } from '../apps/api/src/server/context.ts';

export const ROUTES_BEGIN = '<!-- routes:begin -->';
export const ROUTES_END = '<!-- routes:end -->';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface OpenApiDocument {
  servers?: { url: string }[];
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], { summary?: string }>>>;
}

/** The OpenAPI document, read from GET /v1/openapi.json of an app on a temporary, empty data folder. */
export async function openApiDocument(): Promise<OpenApiDocument> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-docs-api-'));
  const ctx = await openContext(dataDir, { watch: false });
  try {
    const res = await createApp({ ctx }).request('/v1/openapi.json');
    if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
    return (await res.json()) as OpenApiDocument;
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The route table as Markdown: method, path (with the server prefix) and summary, in the document's order. */
export function renderRouteTable(doc: OpenApiDocument): string {
  const prefix = doc.servers?.[0]?.url ?? '';
  let out = '\n| method | path | what it does |\n| --- | --- | --- |\n';
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const summary = (op.summary ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
      out += `| ${method.toUpperCase()} | \`${prefix}${path}\` | ${summary} |\n`;
    }
  }
  return `${out}\n`;
}

/** docs/api.md with the route table between the markers replaced. */
export function withRouteTable(text: string, table: string): string {
  const from = text.indexOf(ROUTES_BEGIN);
  const to = text.indexOf(ROUTES_END);
  if (from < 0 || to < from) throw new Error(`docs/api.md lacks the ${ROUTES_BEGIN} ... ${ROUTES_END} markers`);
  return `${text.slice(0, from + ROUTES_BEGIN.length)}\n${table}${text.slice(to)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = new URL('../docs/api.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, withRouteTable(text, renderRouteTable(await openApiDocument())));
}
