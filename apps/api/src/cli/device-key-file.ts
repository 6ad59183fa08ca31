// A member's device key on disk (docs/approver-keys.md): an Ed25519 private key as PKCS#8 PEM, readable by its
// owner only, made whole or not at all, and read back to sign a decision's content.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { closeSync, existsSync, fchmodSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from './io.ts';
import { readTextFile } from './read-input.ts';

/** A PEM private key is a few hundred bytes; anything much larger is not one. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

export interface DeviceKey {
  readonly privateKey: KeyObject;
  /** The public half as SPKI PEM, as the server lists credentials. */
  readonly publicKeyPem: string;
}

/** A new Ed25519 key pair. */
export function newDeviceKey(): DeviceKey & { privateKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

/** Reads a key file: UNREADABLE when it cannot be read, KEY_FILE_INVALID when it is not an Ed25519 private key. */
export function readDeviceKey(file: string): DeviceKey {
  const text = readTextFile(file, MAX_KEY_FILE_BYTES);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(text);
  } catch {
    throw new CliError('KEY_FILE_INVALID', `${file}: KEY_FILE_INVALID: not a private key in PEM (tollgate approvals key create makes one)`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new CliError('KEY_FILE_INVALID', `${file}: KEY_FILE_INVALID: a ${privateKey.asymmetricKeyType} key; a device key is Ed25519`);
  }
  return { privateKey, publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string };
}

/** Whether two SPKI PEM public keys are the same key (compared as DER, so line breaks and labels do not matter). */
export function samePublicKey(a: string, b: string): boolean {
  try {
    return createPublicKey(a)
      .export({ type: 'spki', format: 'der' })
      .equals(createPublicKey(b).export({ type: 'spki', format: 'der' }));
  } catch {
    return false;
  }
}

/** Ed25519 over the UTF-8 bytes of `content`, base64 (docs/approver-keys.md, "What is signed"). */
export function signContent(key: DeviceKey, content: string): string {
  return sign(null, Buffer.from(content, 'utf8'), key.privateKey).toString('base64');
}

/**
 * A key file being made: the PEM is written and synced to a temp file beside FILE (mode 0600) first, so a
 * folder that cannot be written fails before anything is enrolled; `install` then puts it in place (a hard
 * link, which refuses a file that appeared meanwhile, unless `force`), and `discard` removes it.
 */
export interface PendingKeyFile {
  install(): void;
  discard(): void;
}

export function prepareKeyFile(file: string, pem: string, force: boolean): PendingKeyFile {
  if (!force && existsSync(file)) throw new CliError('FILE_EXISTS', `${file}: FILE_EXISTS: it exists; pass --force to replace it`);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      // The mode given to open passes through the umask; say it outright.
      fchmodSync(fd, 0o600);
      writeSync(fd, pem);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    rmSync(temp, { force: true });
    throw unwritable(file, err);
  }
  return {
    install() {
      try {
        if (force) renameSync(temp, file);
        else linkSync(temp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new CliError('FILE_EXISTS', `${file}: FILE_EXISTS: it appeared meanwhile; pass --force to replace it`);
        }
        throw unwritable(file, err);
      } finally {
        rmSync(temp, { force: true });
      }
    },
    discard() {
      rmSync(temp, { force: true });
    },
  };
}

function unwritable(file: string, err: unknown): CliError {
  return new CliError('UNWRITABLE', `${file}: UNWRITABLE: ${(err as NodeJS.ErrnoException).code ?? 'cannot write'}; nothing was written`);
}
