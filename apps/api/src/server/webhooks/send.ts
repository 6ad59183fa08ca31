// One delivery attempt (docs/webhooks.md, "Delivery"): the body signed as Standard Webhooks specifies (webhook-id,
// webhook-timestamp, webhook-signature over `id.timestamp.body`), the URL checked again (outbound-url.ts) and
// the connection made to the checked address; a redirect is an answer, never followed; the attempt is cut after
// `timeoutMs`; of the answer at most EXCERPT_BYTES are kept and at most READ_LIMIT read.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { checkOutboundUrl, type OutboundPolicy, pinnedLookup } from './outbound-url.ts';

export const EXCERPT_BYTES = 256;
const READ_LIMIT = 64 * 1024;

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
}

export interface Message {
  id: string;
  body: string;
  secret: string;
  url: string;
}

/** The Standard Webhooks headers of `message` signed at `at`. */
export function signedHeaders(message: Message, at: Date): Record<string, string> {
  const signature = new Webhook(message.secret).sign(message.id, at, message.body);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/** Posts `message` once; answers what came of it, never throws. */
export async function sendOnce(message: Message, policy: OutboundPolicy, at: Date, timeoutMs: number): Promise<SendOutcome> {
  const started = performance.now();
  const done = (o: Omit<SendOutcome, 'latencyMs'>): SendOutcome => ({ ...o, latencyMs: Math.round(performance.now() - started) });
  const check = await checkOutboundUrl(message.url, policy);
  if (!check.ok) return done({ ok: false, status: null, error: `refused: ${check.reason}`, excerpt: null });
  const address = check.addresses[0] as { address: string; family: number };
  const body = Buffer.from(message.body);
  const request = check.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    const req = request(
      check.url,
      {
        method: 'POST',
        lookup: pinnedLookup(address),
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'Tollgate-Webhooks/1',
          ...signedHeaders(message, at),
        },
      },
      (res) => {
        readBounded(res).then(
          (excerpt) => {
            const status = res.statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            resolve(
              done({ ok, status, error: ok ? null : status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`, excerpt }),
            );
          },
          (err: Error) => resolve(done({ ok: false, status: res.statusCode ?? null, error: errorText(err), excerpt: null })),
        );
      },
    );
    req.on('error', (err) => resolve(done({ ok: false, status: null, error: errorText(err), excerpt: null })));
    req.end(body);
  });
}

function errorText(err: Error): string {
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout';
  return `${(err as { code?: string }).code ?? err.name}: ${err.message}`.slice(0, 500);
}

/** Reads at most READ_LIMIT bytes of the answer and keeps the first EXCERPT_BYTES as text. */
function readBounded(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      if (size < EXCERPT_BYTES) kept.push(chunk.subarray(0, EXCERPT_BYTES - size));
      size += chunk.length;
      if (size > READ_LIMIT) {
        res.destroy();
        resolve(excerptOf(kept));
      }
    });
    res.on('end', () => resolve(excerptOf(kept)));
    res.on('error', reject);
  });
}

function excerptOf(kept: Buffer[]): string {
  // A multi-byte character cut at the bound is dropped, not replaced: the excerpt stays within the bound.
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(kept)).replace(/\uFFFD$/, '');
}
