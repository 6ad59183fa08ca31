// The relying party of an API request (passkeys.ts, relyingPartyOf), from its Origin and Host headers.
import type { Context } from 'hono';
import { type RelyingParty, relyingPartyOf } from './passkeys.ts';

export function relyingParty(c: Context, configured: string | undefined): RelyingParty {
  return relyingPartyOf(configured, c.req.header('origin'), c.req.header('host'));
}
