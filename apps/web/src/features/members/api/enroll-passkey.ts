// Enrolls a passkey for the signed-in member: POST /v1/me/credentials/passkey/options, the browser makes the
// credential (startRegistration), then POST /v1/me/credentials/passkey {response, issued_at, label}.
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Credential } from './types.ts';

export async function enrollPasskey(label: string): Promise<Credential> {
  const { options, issued_at } = bodyOf(await api.POST('/me/credentials/passkey/options'));
  // The API answers PublicKeyCredentialCreationOptionsJSON (docs/approver-keys.md); its schema says only "an object".
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  const named = label.trim() === '' ? {} : { label: label.trim() };
  // The extension results are copied to a plain object, as the wire type is an open record.
  const sent = { ...response, clientExtensionResults: { ...response.clientExtensionResults } };
  return bodyOf(await api.POST('/me/credentials/passkey', { body: { response: sent, issued_at, ...named } }));
}

export function useEnrollPasskey(onEnrolled: (credential: Credential) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: enrollPasskey,
    onSuccess: async (credential) => {
      onEnrolled(credential);
      await client.invalidateQueries({ queryKey: queryKeys.identity.all });
    },
  });
}
