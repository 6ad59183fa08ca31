// The console's generated wire types stay true to the API: apps/web/src/lib/api/schema.d.ts is what
// scripts/generate-client.ts makes of the OpenAPI document the current code serves.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentSchemaTypes, SCHEMA_PATH } from '../../../scripts/generate-client.ts';

describe(SCHEMA_PATH, () => {
  it('is the types of the current OpenAPI document', async () => {
    const checkedIn = readFileSync(new URL(`../../../${SCHEMA_PATH}`, import.meta.url), 'utf8');
    const fresh = await currentSchemaTypes();
    expect(checkedIn === fresh, `${SCHEMA_PATH} is stale: run \`npm run docs\` and commit the file`).toBe(true);
  });
});
