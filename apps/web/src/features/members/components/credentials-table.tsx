// A member's signing credentials (docs/approver-keys.md): kind, label, fingerprint, when made and whether
// revoked, with Revoke, after a confirmation, on each passkey and device key still active. The custodial
// identity is the server's to hold and is never revoked here.
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { MaybeRelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useCredentials } from '../api/get-credentials.ts';
import { useRevokeCredential } from '../api/revoke-credential.ts';
import type { Credential } from '../api/types.ts';

const KIND_LABEL: Record<Credential['kind'], string> = {
  passkey: 'Passkey',
  device: 'Device key',
  custodial: 'Custodial (held by the server)',
};

/** How a credential is named in questions and announcements. Example: `nameOf({kind: 'passkey', label: 'laptop'})` is `passkey laptop`. */
export const nameOf = (credential: Pick<Credential, 'kind' | 'label'>) =>
  `${credential.kind === 'device' ? 'device key' : credential.kind}${credential.label ? ` ${credential.label}` : ''}`;

export function CredentialsTable({ member, caption, onSaid }: { member: string; caption: string; onSaid: (text: string) => void }) {
  const credentials = useCredentials(member);
  if (credentials.isPending) return <Loading label="Loading the signing keys" />;
  if (credentials.isError) return <ErrorNotice error={credentials.error} />;
  if (credentials.data.length === 0) return <Empty>No signing key.</Empty>;
  return (
    <ScrollPane as="div" label={`${caption}, scrolls sideways`} className="decisions-table-wrap">
      <table className="decisions-table keys-table credentials-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Label</th>
            <th scope="col">Fingerprint</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {credentials.data.map((credential) => (
            <CredentialRow key={credential.id} credential={credential} onSaid={onSaid} />
          ))}
        </tbody>
      </table>
    </ScrollPane>
  );
}

function CredentialRow({ credential, onSaid }: { credential: Credential; onSaid: (text: string) => void }) {
  const revoke = useRevokeCredential((revoked) => onSaid(`The ${nameOf(revoked)} was revoked: it signs no decision from now on.`));
  const name = nameOf(credential);
  return (
    <tr>
      <th scope="row">{KIND_LABEL[credential.kind]}</th>
      <td>{credential.label ?? <span className="muted">none</span>}</td>
      <td>
        <code className="credential-fingerprint">{credential.fingerprint}</code>
      </td>
      <td>
        <MaybeRelativeTime at={credential.created_at} />
      </td>
      <td>
        {credential.revoked_at === null ? (
          <span className="badge badge-key-active">Active</span>
        ) : (
          <>
            <span className="badge badge-key-revoked">Revoked</span> <MaybeRelativeTime at={credential.revoked_at} />
          </>
        )}
      </td>
      <td>
        {credential.kind !== 'custodial' && credential.revoked_at === null && (
          <ConfirmButton
            label="Revoke"
            question={`Revoke the ${name}? A decision it signs is refused from now on.`}
            confirmLabel={`Revoke the ${name}`}
            pending={revoke.isPending}
            error={revoke.error}
            onConfirm={() => revoke.mutate({ member: credential.member, id: credential.id })}
            danger
          />
        )}
      </td>
    </tr>
  );
}
