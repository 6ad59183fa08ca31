// GET /v1/identity/issuers: the OpenID Connect issuers the sign-in page offers beside the member key
// (docs/security.md, "Signing in through an identity provider"); none when the server has no --identity file.
import { useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { ConsoleIssuer } from './oidc-sign-in.ts';

/** The issuers listed; a server that cannot say (an older one, or a failure) offers none rather than an error. */
export async function getIssuers(): Promise<ConsoleIssuer[]> {
  try {
    return bodyOf(await api.GET('/identity/issuers')).issuers;
  } catch {
    return [];
  }
}

export function useIssuers() {
  return useQuery({ queryKey: queryKeys.identityIssuers(), queryFn: getIssuers, staleTime: Number.POSITIVE_INFINITY });
}
