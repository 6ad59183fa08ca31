// Webhook signing secrets at rest (docs/webhooks.md, "The secret at rest"): each is sealed with AES-256-GCM under the
// key CustodialKeys derives from the member key secret for this use alone (members/custodial-keys.ts, derivedKey),
// with a fresh 12-byte IV and the subscription's id as the additional data the tag covers, so reading the database,
// or a backup of it, gives nothing that signs as Tollgate, and a sealed secret copied onto another subscription's row
// opens to nothing (one subscription's receiver cannot be sent messages signed with another's secret). Stored as
// `sealed-v1.<base64url IV>.<base64url ciphertext and tag>`, read exactly: a text that is not one this writes, or
// whose tag the key does not check, opens to nothing (SecretMismatchError), never to a secret that signs garbage.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type CustodialKeys, SecretMismatchError } from '../members/custodial-keys.ts';
import { isSealedSecret, PLAIN_SECRET_PREFIX, SEALED_SECRET_PREFIX } from './model.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const USE = 'webhook-secrets';

/**
 * The stored text of `plain`, subscription `id`'s secret, sealed with the key `keys` derives (NoSecretError in a
 * process without the secret).
 *
 * @example
 * sealWebhookSecret('whsec_…', keys, 'wh_0123') // 'sealed-v1.3q2-…'
 */
export function sealWebhookSecret(plain: string, keys: CustodialKeys, id: string): string {
  const bytes = Buffer.from(plain, 'utf8');
  // A lone surrogate would be written as U+FFFD and open to another text: refused rather than changed.
  if (bytes.toString('utf8') !== plain) throw new Error('a webhook secret is text UTF-8 carries exactly');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.derivedKey(USE), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(id, 'utf8'));
  const sealed = Buffer.concat([cipher.update(bytes), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED_SECRET_PREFIX}${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

/**
 * The plain secret a stored text of subscription `id` holds: a plain `whsec_` secret an earlier version stored is read as it is (it is
 * sealed at the next start: sealingOfSecrets); a sealed one is opened, its tag checked. A text the key does not open,
 * or that is not of either form, is SecretMismatchError (code MEMBER_KEY_SECRET_MISMATCH); a process without the
 * secret opens none (NoSecretError).
 */
export function openWebhookSecret(stored: string, keys: CustodialKeys, id: string): string {
  if (stored.startsWith(PLAIN_SECRET_PREFIX)) return stored;
  const key = keys.derivedKey(USE);
  const parts = isSealedSecret(stored) ? stored.slice(SEALED_SECRET_PREFIX.length).split('.') : [];
  const iv = parts.length === 2 ? exactBase64url(parts[0] as string) : undefined;
  const sealed = parts.length === 2 ? exactBase64url(parts[1] as string) : undefined;
  if (iv?.length !== IV_BYTES || sealed === undefined || sealed.length < TAG_BYTES) {
    throw new SecretMismatchError('a stored webhook secret is not one this version seals; rotate the webhook’s secret');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(id, 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new SecretMismatchError('the member key secret does not open the webhook’s signing secret');
  }
}

/**
 * The writes that seal every plain secret among `rows` (with the plain text each replaces, for the conditional
 * write), after checking that the secret opens a sealed one (one is enough: one secret sealed them all). Throws
 * SecretMismatchError before any write when it does not; a process without the secret writes nothing.
 *
 * @example
 * sealingOfSecrets(rows, keys) // [{ id, plain: 'whsec_…', sealed: 'sealed-v1.…' }] for each plain row
 */
export function sealingOfSecrets(
  rows: readonly { id: string; secret: string }[],
  keys: CustodialKeys,
): { id: string; plain: string; sealed: string }[] {
  // A process without the secret (`tollgate mcp`) leaves them as they are: one that holds it seals them at its start.
  if (!keys.held) return [];
  const sealed = rows.find((r) => isSealedSecret(r.secret));
  if (sealed) openWebhookSecret(sealed.secret, keys, sealed.id);
  return rows
    .filter((r) => r.secret.startsWith(PLAIN_SECRET_PREFIX))
    .map((r) => ({ id: r.id, plain: r.secret, sealed: sealWebhookSecret(r.secret, keys, r.id) }));
}

/** The bytes of canonical unpadded base64url text, or undefined: Node's decoder skips what is not, so it is checked. */
function exactBase64url(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}
