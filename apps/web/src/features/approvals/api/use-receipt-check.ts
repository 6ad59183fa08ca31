// A decision's receipt checked in the browser: the decider's public key (get-member-key.ts), then the
// Ed25519 signature over signed_content with Web Crypto (verify-receipt.ts).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { memberKeyQueryOptions } from './get-member-key.ts';
import type { Approval } from './types.ts';
import { type ReceiptCheck, verifyReceipt } from './verify-receipt.ts';

/** The check of `approval`'s receipt; a key that cannot be read is a failed check, never a verified one. */
export function useReceiptCheck(approval: Approval) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.receipt(approval.id, approval.signature ?? ''),
    queryFn: async (): Promise<ReceiptCheck> => {
      if (approval.decided_by === null) return { verified: false, reason: 'the decision names no decider' };
      let pem: string;
      try {
        pem = (await client.fetchQuery(memberKeyQueryOptions(approval.decided_by))).public_key;
      } catch (error) {
        return { verified: false, reason: `the decider's public key could not be read (${(error as Error).message})` };
      }
      return verifyReceipt(approval, pem);
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
