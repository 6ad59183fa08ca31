// The server-held ("custodial") signing keys at rest (docs/approver-keys.md): each member's Ed25519 private key is
// stored as encrypted PKCS#8 (AES-256-CBC under a key derived from the operator's secret by PBKDF2, the standard
// form `openssl pkcs8` reads), so reading the database, or a backup of it, gives no key that signs. The secret is
// never stored in the database: the operator gives it (server/member-key-secret.ts). The same secret seals webhook
// signing secrets (state/webhooks/sealed-secret.ts), under a key derived from it for that use alone (derivedKey).
import { createPrivateKey, createSecretKey, type KeyObject, scryptSync, timingSafeEqual } from 'node:crypto';

const SEALED_HEADER = '-----BEGIN ENCRYPTED PRIVATE KEY-----';
const PLAIN_HEADER = '-----BEGIN PRIVATE KEY-----';

/** The shortest secret accepted: 32 characters, about the strength of the key it guards when random. */
export const MIN_SECRET_LENGTH = 32;

/** Why stored keys cannot be used: the secret given does not open them. */
export class SecretMismatchError extends Error {
  readonly code = 'MEMBER_KEY_SECRET_MISMATCH';
}

/** Why a process without the secret cannot make or use a custodial key. */
export class NoSecretError extends Error {
  readonly code = 'MEMBER_KEY_SECRET_REQUIRED';
}

/**
 * The uses a key is derived from the secret for, each with a fixed salt of its own, so a key of one use is never a key
 * of another (nor the custodial keys' PBKDF2 key, whose salt is random per key).
 */
const DERIVED_KEY_USES = {
  'webhook-secrets': { salt: 'tollgate/webhook-signing-secrets/aes-256-gcm/v1', guards: 'webhook signing secrets' },
} as const;
export type DerivedKeyUse = keyof typeof DERIVED_KEY_USES;

/** scrypt's cost: about 0.1 s and 32 MiB once a process, since an operator may give a passphrase, not random bytes. */
const SCRYPT_COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** What withoutSecret passes the constructor: no secret, by intent. */
const WITHOUT_SECRET = Symbol('without secret');

export class CustodialKeys {
  readonly #secret: string | undefined;
  /** The keys derived so far, by use: each derived once (a process makes its CustodialKeys once). */
  readonly #derived = new Map<DerivedKeyUse, KeyObject>();

  constructor(secret: string | typeof WITHOUT_SECRET) {
    if (secret === WITHOUT_SECRET) {
      this.#secret = undefined;
      return;
    }
    if (secret.length < MIN_SECRET_LENGTH) throw new Error(`the member key secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.#secret = secret;
  }

  /**
   * Keys for a process that never signs for a member nor makes one (`tollgate mcp`, an agent's gateway): it holds no
   * secret, so a host beside the agents holds nothing that could sign an approval.
   */
  static withoutSecret(): CustodialKeys {
    return new CustodialKeys(WITHOUT_SECRET);
  }

  /** Whether this process holds the secret (withoutSecret: not). */
  get held(): boolean {
    return this.#secret !== undefined;
  }

  /** Whether `other` holds the very same secret: a rotation to the secret in use is refused (docs/cli.md). */
  sameSecretAs(other: CustodialKeys): boolean {
    const mine = Buffer.from(this.#required(), 'utf8');
    const theirs = Buffer.from(other.#required(), 'utf8');
    return mine.length === theirs.length && timingSafeEqual(mine, theirs);
  }

  /**
   * The secret as a secret file holds it, with its final newline: for the one writer of the data folder's own file
   * after a rotation (member-key-secret.ts, replaceSecretFile), never for output.
   */
  secretFileText(): string {
    return `${this.#required()}\n`;
  }

  /** The key as stored: encrypted PKCS#8 PEM. */
  seal(key: KeyObject): string {
    return key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: this.#required() }).toString();
  }

  #required(why = 'this process holds no member key secret; a member is made and signs where it is given'): string {
    if (this.#secret === undefined) throw new NoSecretError(why);
    return this.#secret;
  }

  /**
   * The AES-256 key for `use`, derived from the secret by scrypt with the use's own salt, the first time it is asked
   * for; the secret itself never leaves this object. A process without the secret has none (NoSecretError).
   */
  derivedKey(use: DerivedKeyUse): KeyObject {
    let key = this.#derived.get(use);
    if (key === undefined) {
      const { salt, guards } = DERIVED_KEY_USES[use];
      const secret = this.#required(`this process holds no member key secret, which ${guards} are sealed with; tollgate serve holds it`);
      key = createSecretKey(scryptSync(secret, salt, 32, SCRYPT_COST));
      this.#derived.set(use, key);
    }
    return key;
  }

  /**
   * The private key a stored text holds; a key an earlier version stored in plain text is read as it is (it is
   * sealed at the next start: sealPlainKeys). A sealed key the secret does not open is SecretMismatchError.
   */
  open(stored: string): KeyObject {
    if (!isSealed(stored)) return createPrivateKey(stored);
    const passphrase = this.#required();
    try {
      return createPrivateKey({ key: stored, format: 'pem', passphrase });
    } catch {
      throw new SecretMismatchError('the member key secret does not open the stored signing keys');
    }
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_HEADER);
}

export function isPlain(stored: string): boolean {
  return stored.startsWith(PLAIN_HEADER);
}

/**
 * The writes that seal every plain key among `rows` and the check that the secret opens the sealed ones (one is
 * enough: one secret sealed them all). Throws SecretMismatchError before any write when it does not; a process
 * without the secret writes nothing.
 *
 * @example
 * sealingOf(rows, keys) // [{ id, private_key: '-----BEGIN ENCRYPTED PRIVATE KEY-----…' }] for each plain row
 */
export function sealingOf(
  rows: readonly { id: string; private_key: string }[],
  keys: CustodialKeys,
): { id: string; private_key: string }[] {
  // A process without the secret leaves the keys as they are: one that holds it seals them at its start.
  if (!keys.held) return [];
  const sealed = rows.find((r) => isSealed(r.private_key));
  if (sealed) keys.open(sealed.private_key);
  return rows.filter((r) => isPlain(r.private_key)).map((r) => ({ id: r.id, private_key: keys.seal(createPrivateKey(r.private_key)) }));
}
