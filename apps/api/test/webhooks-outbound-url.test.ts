// Where webhooks may go (apps/api/src/server/webhooks/outbound-url.ts, docs/webhooks.md): internal addresses and
// names resolving to them refused by default, https required unless http is allowed, and a redirect answered by a
// receiver recorded as such, never followed (a real loopback server behind it hears nothing).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, isInternalAddress, STRICT_OUTBOUND } from '../src/server/webhooks/outbound-url.ts';
import { sendOnce } from '../src/server/webhooks/send.ts';

describe('outbound URL checks', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://172.31.255.255/hook',
    'https://192.168.1.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[fe80::1]/hook',
    'https://[fc00::1]/hook',
    'https://0.0.0.0/hook',
    'https://100.64.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://localhost/hook',
  ])('refuses %s by default', async (url) => {
    const check = await checkOutboundUrl(url, STRICT_OUTBOUND);
    expect(check.ok).toBe(false);
  });

  it('refuses a name that resolves to an internal address among public ones', async () => {
    const resolve = (async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]) as unknown as Parameters<typeof checkOutboundUrl>[2];
    const check = await checkOutboundUrl('https://hooks.example.com/x', STRICT_OUTBOUND, resolve);
    expect(check).toMatchObject({ ok: false });
    if (!check.ok) expect(check.reason).toContain('10.0.0.7');
  });

  it('allows https to a public address, and refuses http unless allowed', async () => {
    expect((await checkOutboundUrl('https://93.184.216.34/hook', STRICT_OUTBOUND)).ok).toBe(true);
    const resolve = (async () => [{ address: '2606:2800:220:1::1', family: 6 }]) as unknown as Parameters<typeof checkOutboundUrl>[2];
    expect((await checkOutboundUrl('https://hooks.example.com/x', STRICT_OUTBOUND, resolve)).ok).toBe(true);
    expect((await checkOutboundUrl('http://93.184.216.34/hook', STRICT_OUTBOUND)).ok).toBe(false);
    expect((await checkOutboundUrl('http://93.184.216.34/hook', { allowHttp: true, allowPrivate: false })).ok).toBe(true);
    expect((await checkOutboundUrl('ftp://93.184.216.34/hook', { allowHttp: true, allowPrivate: true })).ok).toBe(false);
    expect((await checkOutboundUrl('https://user:pw@93.184.216.34/hook', STRICT_OUTBOUND)).ok).toBe(false);
  });

  it('allows internal addresses only when the operator allows them', async () => {
    expect((await checkOutboundUrl('https://127.0.0.1/hook', { allowHttp: false, allowPrivate: true })).ok).toBe(true);
    expect(isInternalAddress('8.8.8.8')).toBe(false);
    expect(isInternalAddress('172.32.0.1')).toBe(false);
    expect(isInternalAddress('100.128.0.1')).toBe(false);
  });
});

describe('a redirect answer', () => {
  let target: Server;
  let redirector: Server;
  let heard = 0;
  const listen = (server: Server) =>
    new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port)));
  let redirectUrl = '';
  beforeAll(async () => {
    target = createServer((_req, res) => {
      heard++;
      res.end('ok');
    });
    const targetPort = await listen(target);
    redirector = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `http://127.0.0.1:${targetPort}/` });
      res.end('moved');
    });
    redirectUrl = `http://127.0.0.1:${await listen(redirector)}/hook`;
  });
  afterAll(() => {
    target.close();
    redirector.close();
  });

  it('is recorded as a failed attempt and not followed', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const outcome = await sendOnce(
      { id: 'msg_1', body: '{"type":"x"}', secret, url: redirectUrl },
      { allowHttp: true, allowPrivate: true },
      new Date(),
      2000,
    );
    expect(outcome).toMatchObject({ ok: false, status: 307, error: 'redirect not followed', excerpt: 'moved' });
    expect(heard).toBe(0);
  });

  it('is not sent at all to a loopback receiver unless the operator allows it', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const outcome = await sendOnce(
      { id: 'msg_2', body: '{}', secret, url: redirectUrl },
      { allowHttp: true, allowPrivate: false },
      new Date(),
      2000,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/^refused: /);
  });
});
