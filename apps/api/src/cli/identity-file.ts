// serve's --identity FILE (or TOLLGATE_IDENTITY_FILE): the OpenID Connect issuers whose tokens are bearers beside
// keys (docs/security.md, "Signing in through an identity provider"). A file that does not read, or is not of the
// configuration's shape, stops the server before it opens anything, each fault named by its JSON Pointer.
import { createIdentity, type Identity } from '../server/identity/identity.ts';
import { MAX_IDENTITY_BYTES, readIdentityConfig } from '../server/identity/identity-config.ts';
import { refusedInput } from './io.ts';
import { readTextFile } from './read-input.ts';

/**
 * The identity --identity or TOLLGATE_IDENTITY_FILE names, or undefined when neither is given (keys only).
 *
 * @example
 * identityOf('identity.json') // an Identity, or throws CliError INVALID_IDENTITY naming /issuers/0/issuer
 */
export function identityOf(flag: string | undefined, env: Record<string, string | undefined> = process.env): Identity | undefined {
  const file = flag ?? (env.TOLLGATE_IDENTITY_FILE === '' ? undefined : env.TOLLGATE_IDENTITY_FILE);
  if (file === undefined) return undefined;
  const read = readIdentityConfig(readTextFile(file, MAX_IDENTITY_BYTES));
  if (!read.ok) throw refusedInput(file, read.problems);
  return createIdentity(read.config);
}
