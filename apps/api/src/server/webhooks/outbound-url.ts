// Where a webhook may be sent (docs/webhooks.md, "Where deliveries may go"): https unless the operator allows http,
// and no address inside the operator's own networks unless the operator allows them: loopback, private (RFC 1918,
// fc00::/7), link-local (169.254/16, fe80::/10, the cloud metadata address among them), unspecified and CGNAT
// (100.64/10). A host name is resolved (every address) and refused if any address is; the delivery then connects to
// an address checked here (pinnedLookup), so a name that resolves again to another address (DNS rebinding) cannot
// move it. Checked when a subscription is made and again at every delivery.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface OutboundPolicy {
  /** http:// URLs too (TOLLGATE_WEBHOOKS_ALLOW_HTTP=1, serve's --webhooks-allow-http). */
  allowHttp: boolean;
  /** Loopback, private, link-local, unspecified and CGNAT addresses too (TOLLGATE_WEBHOOKS_ALLOW_PRIVATE=1). */
  allowPrivate: boolean;
}

export const STRICT_OUTBOUND: OutboundPolicy = { allowHttp: false, allowPrivate: false };

/** The operator's choice from the environment (serve's flags set the same variables). */
export function outboundPolicyOf(env: NodeJS.ProcessEnv = process.env): OutboundPolicy {
  return { allowHttp: env.TOLLGATE_WEBHOOKS_ALLOW_HTTP === '1', allowPrivate: env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE === '1' };
}

const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  INTERNAL.addSubnet(net, bits, 'ipv6');
}

/** Whether an address is one of the operator's own networks (above); an IPv4-mapped IPv6 address by its IPv4. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type OutboundCheck = { ok: true; url: URL; addresses: { address: string; family: number }[] } | { ok: false; reason: string };

/**
 * Checks `text` as a webhook's URL under `policy`: its scheme, and every address its host resolves to.
 *
 * @example
 * const check = await checkOutboundUrl('https://hooks.example.com/tollgate', STRICT_OUTBOUND);
 * if (!check.ok) throw new ApiError('WEBHOOK_URL_REFUSED', check.reason);
 */
export async function checkOutboundUrl(text: string, policy: OutboundPolicy, resolve: typeof lookup = lookup): Promise<OutboundCheck> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return { ok: false, reason: policy.allowHttp ? 'only http and https URLs are sent to' : 'only https URLs are sent to' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'a URL with credentials in it is refused' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host, { all: true, verbatim: true });
    } catch (err) {
      return { ok: false, reason: `the host does not resolve (${(err as { code?: string }).code ?? 'no address'})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: 'the host does not resolve' };
  if (!policy.allowPrivate) {
    const internal = addresses.find((a) => isInternalAddress(a.address));
    if (internal)
      return { ok: false, reason: `the host resolves to ${internal.address}, an internal address (loopback, private, link-local)` };
  }
  return { ok: true, url, addresses };
}

/** A `lookup` that answers only the checked address, whatever the name resolves to now. */
export function pinnedLookup(address: { address: string; family: number }): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  }) as LookupFunction;
}
