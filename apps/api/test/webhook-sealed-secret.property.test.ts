// The sealing of webhook signing secrets (state/webhooks/sealed-secret.ts, docs/webhooks.md "The secret at rest"),
// over generated secrets: sealing then opening gives the secret back, two sealings of one secret differ (a fresh IV
// each), and any one byte of the sealed text changed opens to nothing (SecretMismatchError), never to another secret;
// another member key secret opens none, and a process without one neither seals nor opens.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CustodialKeys, NoSecretError, SecretMismatchError } from '../src/server/state/members/custodial-keys.ts';
import { SEALED_SECRET_PREFIX } from '../src/server/state/webhooks/model.ts';
import { openWebhookSecret, sealingOfSecrets, sealWebhookSecret } from '../src/server/state/webhooks/sealed-secret.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';

const KEYS = testCustodialKeys();
const OTHER_KEYS = new CustodialKeys('another-member-key-secret-of-at-least-32-chars');
/** The subscription the sealed secrets belong to (the tag covers its id). */
const ID = 'wh_property';

/** Secrets as Tollgate makes them (whsec_ and base64 of random bytes), and any other text UTF-8 carries. */
const secrets = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
);

/** The error `open` throws, or undefined when it opens. */
function refusalOf(open: () => string): unknown {
  try {
    open();
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('sealed webhook secrets', () => {
  it('open to the secret sealed, and two sealings of one secret differ', () => {
    fc.assert(
      fc.property(secrets, (secret) => {
        const sealed = sealWebhookSecret(secret, KEYS, ID);
        expect(sealed.startsWith(SEALED_SECRET_PREFIX)).toBe(true);
        expect(openWebhookSecret(sealed, KEYS, ID)).toBe(secret);
        expect(sealWebhookSecret(secret, KEYS, ID)).not.toBe(sealed);
      }),
      { numRuns: 300 },
    );
  });

  it('refuse to open once any one byte of the sealed text is changed, at every place, to every other byte', () => {
    fc.assert(
      fc.property(secrets, (secret) => {
        const sealed = sealWebhookSecret(secret, KEYS, ID);
        for (let i = 0; i < sealed.length; i++) {
          for (let byte = 0; byte < 256; byte++) {
            if (sealed.charCodeAt(i) === byte) continue;
            const changed = `${sealed.slice(0, i)}${String.fromCharCode(byte)}${sealed.slice(i + 1)}`;
            const err = refusalOf(() => openWebhookSecret(changed, KEYS, ID));
            if (!(err instanceof SecretMismatchError)) throw new Error(`byte ${byte} at ${i} of ${sealed} opened`);
          }
        }
      }),
      { numRuns: 12 },
    );
  });

  it("open only as their own subscription's: a sealed secret copied onto another row opens to nothing", () => {
    const ids = fc.stringMatching(/^wh_[0-9a-f]{1,20}$/);
    fc.assert(
      fc.property(secrets, ids, ids, (secret, id, other) => {
        fc.pre(id !== other);
        const sealed = sealWebhookSecret(secret, KEYS, id);
        expect(openWebhookSecret(sealed, KEYS, id)).toBe(secret);
        expect(refusalOf(() => openWebhookSecret(sealed, KEYS, other))).toBeInstanceOf(SecretMismatchError);
      }),
      { numRuns: 200 },
    );
  });

  it('open with no other member key secret, and not at all in a process without one', () => {
    fc.assert(
      fc.property(secrets, (secret) => {
        const sealed = sealWebhookSecret(secret, KEYS, ID);
        expect(refusalOf(() => openWebhookSecret(sealed, OTHER_KEYS, ID))).toBeInstanceOf(SecretMismatchError);
        expect(refusalOf(() => openWebhookSecret(sealed, CustodialKeys.withoutSecret(), ID))).toBeInstanceOf(NoSecretError);
      }),
      { numRuns: 50 },
    );
    expect(() => sealWebhookSecret('whsec_AAAA', CustodialKeys.withoutSecret(), ID)).toThrow(NoSecretError);
  });

  it('seal at a start every plain secret, after the secret opens one sealed already; else nothing is written', () => {
    const sealed = sealWebhookSecret('whsec_AAAA', KEYS, 'a');
    const rows = [
      { id: 'a', secret: sealed },
      { id: 'b', secret: 'whsec_BBBB' },
    ];
    const writes = sealingOfSecrets(rows, KEYS);
    expect(writes.map((w) => [w.id, w.plain, openWebhookSecret(w.sealed, KEYS, w.id)])).toEqual([['b', 'whsec_BBBB', 'whsec_BBBB']]);
    expect(() => sealingOfSecrets(rows, OTHER_KEYS)).toThrow(SecretMismatchError);
    expect(sealingOfSecrets(rows, CustodialKeys.withoutSecret())).toEqual([]);
    // A plain secret is read as it is until then; a text of neither form opens to nothing.
    expect(openWebhookSecret('whsec_BBBB', KEYS, ID)).toBe('whsec_BBBB');
    expect(() => openWebhookSecret('sealed-v2.AAAA.AAAA', KEYS, ID)).toThrow(SecretMismatchError);
    expect(() => sealWebhookSecret('whsec_\uD800', KEYS, ID)).toThrow(/UTF-8/);
  });
});
