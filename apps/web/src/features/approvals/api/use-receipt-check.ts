// A decision's receipt checked in the browser. Signed by the server with the decider's custodial key: the Ed25519
// signature over signed_content with the decider's public key (get-member-key.ts, verify-receipt.ts). Signed with
// a passkey or device key: the proof over signed_content with the credential it names (verify-member-proof.ts).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { getDeciderCredential } from './get-decider-credentials.ts';
import { memberKeyQueryOptions } from './get-member-key.ts';
import type { Approval } from './types.ts';
import { type StoredProof, verifyMemberProof } from './verify-member-proof.ts';
import { type ReceiptCheck, verifyReceipt } from './verify-receipt.ts';

const unreadable = (what: string, error: unknown): ReceiptCheck => ({
  verified: false,
  reason: `${what} could not be read (${(error as Error).message})`,
});

/** The check of `approval`'s receipt; a key that cannot be read is a failed check, never a verified one. */
export function useReceiptCheck(approval: Approval) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.receipt(approval.id, approval.signature ?? ''),
    queryFn: async ({ signal }): Promise<ReceiptCheck> => {
      const decider = approval.decided_by;
      if (decider === null) return { verified: false, reason: 'the decision names no decider' };
      const proof = (approval.proof ?? null) as StoredProof | null;
      if (proof !== null) {
        let key: Awaited<ReturnType<typeof getDeciderCredential>>;
        try {
          key = await getDeciderCredential(decider, proof.credential_id, signal);
        } catch (error) {
          return unreadable("the decider's credentials", error);
        }
        if (key === undefined) return { verified: false, reason: `the decider holds no credential ${proof.credential_id}` };
        return verifyMemberProof(approval, proof, key);
      }
      let pem: string;
      try {
        pem = (await client.fetchQuery(memberKeyQueryOptions(decider))).public_key;
      } catch (error) {
        return unreadable("the decider's public key", error);
      }
      return verifyReceipt(approval, pem);
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
