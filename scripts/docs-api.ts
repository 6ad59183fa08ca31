// npm run docs: rewrites the route table of docs/api.md from the OpenAPI document the app serves at
// GET /v1/openapi.json (built on a temporary data folder, so the table lists every route), and its API
// error-code table from API_CODES (packages/engine/src/codes/api-codes.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_CODES } from '@tollgate/engine';
import { createApp } from '../apps/api/src/server/app.ts';
import { openContext } from '../apps/api/src/server/sqlite-context.ts';

export const ROUTES_BEGIN = '<!-- routes:begin -->';
export const ROUTES_END = '<!-- routes:end -->';
export const CODES_BEGIN = '<!-- codes:begin -->';
export const CODES_END = '<!-- codes:end -->';

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
      const summary = cell(op.summary ?? '');
      out += `| ${method.toUpperCase()} | \`${prefix}${path}\` | ${summary} |\n`;
    }
  }
  return `${out}\n`;
}

/** A table cell's text: pipes escaped, on one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The API error codes as Markdown: code, status and meaning, in the registry's order. */
export function renderCodeTable(): string {
  let out = '\n| code | status | meaning |\n| --- | --- | --- |\n';
  for (const [code, { status, meaning }] of Object.entries(API_CODES)) out += `| \`${code}\` | ${status} | ${cell(meaning)} |\n`;
  return `${out}\n`;
}

/** `text` with what lies between the markers `begin` and `end` replaced by `table`. */
export function withSection(text: string, begin: string, end: string, table: string): string {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/api.md lacks the ${begin} ... ${end} markers`);
  return `${text.slice(0, from + begin.length)}\n${table}${text.slice(to)}`;
}

/** docs/api.md with the route table between the markers replaced. */
export const withRouteTable = (text: string, table: string) => withSection(text, ROUTES_BEGIN, ROUTES_END, table);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = new URL('../docs/api.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const routes = withRouteTable(text, renderRouteTable(await openApiDocument()));
  writeFileSync(file, withSection(routes, CODES_BEGIN, CODES_END, renderCodeTable()));
}
