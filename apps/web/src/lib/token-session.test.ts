// The token session's pure parts: when a session ends (expires_in against the JWT's exp), what a stored session
// must be to be used, and that a stale or broken one is removed from storage as it is read.
import { describe, expect, it } from 'vitest';
import {
  clearTokenSession,
  expiresAtOf,
  jwtExpOf,
  msUntil,
  readStoredSession,
  type SessionStore,
  writeTokenSession,
} from './token-session.ts';

/** sessionStorage's contract in memory. */
class MemoryStore implements SessionStore {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: unknown) => `${segment({ alg: 'RS256' })}.${segment(payload)}.c2ln`;

describe('jwtExpOf', () => {
  it("reads a JWT's numeric exp and nothing else", () => {
    expect(jwtExpOf(jwt({ exp: 1_767_225_600, email: 'ø' }))).toBe(1_767_225_600);
    expect(jwtExpOf(jwt({ exp: '1767225600' }))).toBeUndefined();
    expect(jwtExpOf(jwt({ sub: 'x' }))).toBeUndefined();
    expect(jwtExpOf(jwt([1]))).toBeUndefined();
    expect(jwtExpOf('opaque-token')).toBeUndefined();
    expect(jwtExpOf('a.b+c.d')).toBeUndefined();
    // A payload that is not JSON, or names exp twice, is not read.
    expect(jwtExpOf(`x.${Buffer.from('{"exp": 1,').toString('base64url')}.y`)).toBeUndefined();
    expect(jwtExpOf(`x.${Buffer.from('{"exp": 1, "exp": 9999999999}').toString('base64url')}.y`)).toBe(1);
  });
});

describe('expiresAtOf', () => {
  it('takes the earlier of expires_in and exp, and refuses a token that does not say', () => {
    expect(expiresAtOf(1_000_000, 3, undefined)).toBe(1_003_000);
    expect(expiresAtOf(1_000_000, undefined, 2_000)).toBe(2_000_000);
    expect(expiresAtOf(1_000_000, 3600, 1_005)).toBe(1_005_000);
    expect(expiresAtOf(1_000_000, 3, 9_999)).toBe(1_003_000);
    expect(expiresAtOf(1_000_000, 0, undefined)).toBeNull();
    expect(expiresAtOf(1_000_000, Number.NaN, undefined)).toBeNull();
    expect(expiresAtOf(1_000_000, undefined, undefined)).toBeNull();
  });
});

describe('msUntil', () => {
  it('is never negative and never past what a timer can wait', () => {
    expect(msUntil(5_000, 2_000)).toBe(3_000);
    expect(msUntil(1_000, 2_000)).toBe(0);
    expect(msUntil(Number.MAX_SAFE_INTEGER, 0)).toBe(2_147_483_647);
  });
});

describe('the stored session', () => {
  it('is used until it ends, then removed as it is read', () => {
    const store = new MemoryStore();
    writeTokenSession({ token: 't', expiresAt: 10_000, issuer: 'https://idp.test' }, store);
    expect(readStoredSession(store, 9_999)).toEqual({ token: 't', expiresAt: 10_000, issuer: 'https://idp.test' });
    expect(readStoredSession(store, 10_000)).toBeNull();
    expect(store.items.size).toBe(0);
  });

  it('is removed when it is not the shape written', () => {
    for (const text of [
      'not json',
      '[]',
      '{"token": "", "expiresAt": 10, "issuer": "i"}',
      '{"token": "t", "expiresAt": "10", "issuer": "i"}',
    ]) {
      const store = new MemoryStore();
      store.setItem('tollgate.token-session', text);
      expect(readStoredSession(store, 0)).toBeNull();
      expect(store.items.size).toBe(0);
    }
  });

  it('is gone from storage on sign-out', () => {
    const store = new MemoryStore();
    writeTokenSession({ token: 't', expiresAt: 10_000, issuer: 'i' }, store);
    clearTokenSession(store);
    expect(store.items.size).toBe(0);
  });
});
