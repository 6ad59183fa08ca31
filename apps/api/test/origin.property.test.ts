// The origin reader of --cors-origin and connect-src (server/origin.ts), by property: it takes exactly what a
// browser would send as `Origin` and nothing that differs from it by a byte, whatever text it is given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOrigin } from '../src/server/origin.ts';

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const host = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => [...labels, 'example'].join('.')),
  fc.ipV4(),
  fc.constant('localhost'),
);
const scheme = fc.constantFrom('http', 'https');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });

/** An origin as a browser serializes it: no default port. */
const origin = fc.tuple(scheme, host, port).map(([s, h, p]) => {
  const shown = p === undefined || (s === 'http' && p === 80) || (s === 'https' && p === 443) ? '' : `:${p}`;
  return `${s}://${h}${shown}`;
});

describe('readOrigin', () => {
  it('takes every origin as a browser sends it, unchanged', () => {
    fc.assert(
      fc.property(origin, (o) => {
        expect(readOrigin(o)).toEqual({ ok: true, origin: o });
      }),
    );
  });

  it('refuses an origin with anything after it, a default port, or letters a browser lowers', () => {
    const after = fc.constantFrom('/', '/x', '?', '?a=1', '#', '#f', '/.', ' ', '.evil.example/');
    fc.assert(
      fc.property(origin, after, (o, tail) => {
        expect(readOrigin(o + tail).ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(scheme, host, (s, h) => {
        expect(readOrigin(`${s}://${h}:${s === 'http' ? 80 : 443}`).ok).toBe(false);
        if (/[a-z]/.test(h)) expect(readOrigin(`${s}://${h.toUpperCase()}`).ok).toBe(false);
        expect(readOrigin(`${s}://user@${h}`).ok).toBe(false);
      }),
    );
  });

  it('takes any text only when the URL standard reads it back to the very same origin', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          origin.map((o) => o.replace(/^http/, 'ws')),
        ),
        (text) => {
          const read = readOrigin(text);
          if (!read.ok) return;
          const url = new URL(text);
          expect(read.origin).toBe(text);
          expect(url.origin).toBe(text);
          expect(['http:', 'https:']).toContain(url.protocol);
        },
      ),
    );
  });
});
