// The API docs stay true to the code: docs/api.md carries the route table rendered from the OpenAPI
// document the app serves (run npm run docs to refresh it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument, ROUTES_BEGIN, ROUTES_END, renderRouteTable } from '../../../scripts/docs-api.ts';

const docs = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('carries the route table of the current OpenAPI document', async () => {
    const doc = await openApiDocument();
    expect(docs).toContain(`${ROUTES_BEGIN}\n${renderRouteTable(doc)}${ROUTES_END}`);
  });

  it('lists every route of the OpenAPI document, the decisions routes among them', async () => {
    const doc = await openApiDocument();
    const table = renderRouteTable(doc);
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of Object.keys(item)) expect(table).toContain(`| ${method.toUpperCase()} | \`/v1${path}\` |`);
    }
    expect(table).toContain('| GET | `/v1/decisions/{call_id}` |');
  });
});
