// The exact reader of a web origin an operator lists (serve's --cors-origin, the CSP's connect-src): written as a
// browser writes an `Origin` header, or refused, because an allowlist compares it to that header byte for byte.

export type OriginReading = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * `scheme://host[:port]` with an http or https scheme, exactly as a browser serializes it (lower-case, no default
 * port, no path, not even `/`); anything else is refused with the form it should take where there is one.
 * Example: `readOrigin('https://console.example.com:8443')` is `{ ok: true, origin: 'https://console.example.com:8443' }`.
 */
export function readOrigin(text: string): OriginReading {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `not an origin (scheme://host[:port]): ${JSON.stringify(text)}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `an origin is http:// or https://, got ${JSON.stringify(text)}` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: `an origin has no user or password: ${JSON.stringify(text)}` };
  }
  if (url.origin !== text) {
    return { ok: false, reason: `an origin is scheme://host[:port] as a browser sends it, ${url.origin}; got ${JSON.stringify(text)}` };
  }
  return { ok: true, origin: text };
}
