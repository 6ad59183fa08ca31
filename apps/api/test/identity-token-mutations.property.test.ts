// A token changed anywhere never verifies (identity/verify-token.ts): random edits of a valid token's characters
// (replaced, inserted, removed), against a real provider's key set, are each refused with a 401 code.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/server/errors.ts';
import { readIdentityConfig } from '../src/server/identity/identity-config.ts';
import { createTokenVerifier } from '../src/server/identity/verify-token.ts';
import { type Provider, startProvider } from './identity-provider.ts';

let provider: Provider;
let verify: ReturnType<typeof createTokenVerifier>;
let token: string;
const RESOURCE = 'https://tollgate.example';

beforeAll(async () => {
  provider = await startProvider();
  const read = readIdentityConfig(JSON.stringify({ resource: RESOURCE, issuers: [{ issuer: provider.issuer, member_claim: 'email' }] }));
  if (!read.ok) throw new Error('the configuration does not read');
  verify = createTokenVerifier(read.config);
  token = await provider.token({ aud: RESOURCE, email: 'olivia', groups: ['tg-owners'] });
});

afterAll(() => provider?.stop());

/** A character as a bearer could carry it: the token's alphabet, its separator, and a few others. */
const character = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ~');

// Positions near a segment's end are drawn often: a last character's spare bits are where a lenient base64url
// decoder would read another spelling as the same bytes.
const position = fc.oneof(fc.nat(), fc.integer({ min: -4, max: -1 }), fc.integer({ min: -350, max: -340 }));

const edit = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: position, by: character }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), by: character }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(), by: fc.constant('') }),
);

function mutate(text: string, edits: readonly { kind: 'replace' | 'insert' | 'remove'; at: number; by: string }[]): string {
  let out = text;
  for (const e of edits) {
    const at = e.at < 0 ? Math.max(0, out.length + e.at) : e.at % (out.length + 1);
    if (e.kind === 'insert') out = out.slice(0, at) + e.by + out.slice(at);
    else if (at < out.length) out = out.slice(0, at) + (e.kind === 'replace' ? e.by : '') + out.slice(at + 1);
  }
  return out;
}

describe('a mutated token', () => {
  it('verifies unmutated, so the property below is about the edits', async () => {
    expect((await verify(token)).claims.email).toBe('olivia');
  });

  it('never verifies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        const mutated = mutate(token, edits);
        fc.pre(mutated !== token);
        const outcome = await verify(mutated).then(
          () => 'verified',
          (err: unknown) => (err instanceof ApiError ? err.status : 'thrown'),
        );
        expect(outcome).toBe(401);
      }),
      { numRuns: 400 },
    );
  }, 60_000);
});
