// The sign-in round trip's pure parts: what waits in sessionStorage is read once and removed at once, whatever it
// holds; plain http only for a loopback issuer; the button's label; the sentence for a provider's refusal.
import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../lib/token-session.ts';
import { allowsPlainHttp, deniedMessage, issuerLabel, type PendingSignIn, savePending, takePending } from './oidc-sign-in.ts';

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

const PENDING: PendingSignIn = {
  issuer: 'https://idp.test/',
  clientId: 'tollgate-console',
  verifier: 'v'.repeat(43),
  state: 's',
  nonce: 'n',
  redirectUri: 'https://tollgate.test/sign-in/callback',
};

describe('the pending sign-in', () => {
  it('is read once: the first read takes it and leaves nothing', () => {
    const store = new MemoryStore();
    savePending(store, PENDING);
    expect(takePending(store)).toEqual(PENDING);
    expect(store.items.size).toBe(0);
    expect(takePending(store)).toBeNull();
  });

  it('is removed even when it is not the shape written', () => {
    for (const text of ['{', '"x"', JSON.stringify({ ...PENDING, state: '' }), JSON.stringify({ ...PENDING, nonce: 1 })]) {
      const store = new MemoryStore();
      store.setItem('tollgate.sign-in-pending', text);
      expect(takePending(store)).toBeNull();
      expect(store.items.size).toBe(0);
    }
  });

  it('keeps only the fields it names', () => {
    const store = new MemoryStore();
    store.setItem('tollgate.sign-in-pending', JSON.stringify({ ...PENDING, extra: 'x' }));
    expect(takePending(store)).toEqual(PENDING);
  });
});

describe('issuers', () => {
  it('allow plain http on loopback only', () => {
    expect(allowsPlainHttp('http://127.0.0.1:8080')).toBe(true);
    expect(allowsPlainHttp('http://localhost:8080/realms/x')).toBe(true);
    expect(allowsPlainHttp('http://[::1]:8080')).toBe(true);
    expect(allowsPlainHttp('http://idp.example.com')).toBe(false);
    expect(allowsPlainHttp('http://127.0.0.1.example.com')).toBe(false);
    expect(allowsPlainHttp('https://127.0.0.1')).toBe(false);
    expect(allowsPlainHttp('not a url')).toBe(false);
  });

  it("are labelled by their host, and a refusal says the provider's code", () => {
    expect(issuerLabel('https://idp.example.com/realms/a')).toBe('idp.example.com');
    expect(issuerLabel('http://127.0.0.1:9000')).toBe('127.0.0.1:9000');
    expect(deniedMessage('access_denied', null)).toBe('The identity provider refused the sign-in (access_denied). Nothing was kept.');
    expect(deniedMessage('server_error', 'down')).toContain('(server_error: down)');
  });
});
