// The keys table: name, holder, hint, grants, status, made (by whom, when), expiry and last use, with Rotate and
// Revoke on each key that can still be. Owners and admins see every key and the New key form; anyone else sees
// their own keys (GET /v1/keys answers so) and may rotate or revoke them.
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { MaybeRelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useKeys } from '../api/get-keys.ts';
import { useRevokeKey } from '../api/revoke-key.ts';
import type { Key } from '../api/types.ts';
import { hintOf, holderOf, type RevealedKey } from '../key-forms.ts';
import { NewKeyForm } from './new-key-form.tsx';
import { RotateKeyButton } from './rotate-key-button.tsx';

interface KeysSectionProps {
  canManage: boolean;
  onSaid: (text: string) => void;
  onSecret: (revealed: RevealedKey) => void;
}

const STATUS_LABEL: Record<Key['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

export function KeysSection({ canManage, onSaid, onSecret }: KeysSectionProps) {
  const keys = useKeys();
  return (
    <section className="stack" aria-labelledby="keys-heading">
      <h2 id="keys-heading">{canManage ? 'Keys' : 'Your keys'}</h2>
      {keys.isPending && <Loading label="Loading the keys" />}
      {keys.isError && <ErrorNotice error={keys.error} />}
      {keys.isSuccess && keys.data.length === 0 && <Empty>No keys.</Empty>}
      {keys.isSuccess && keys.data.length > 0 && (
        <ScrollPane as="div" label="Keys, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table keys-table">
            <caption>{canManage ? 'Keys, oldest first' : 'Your keys, oldest first'}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Holder</th>
                <th scope="col">Hint</th>
                <th scope="col">Grants</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <KeyRow key={key.id} info={key} onSaid={onSaid} onSecret={onSecret} />
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
      {canManage && <NewKeyForm onSaid={onSaid} onSecret={onSecret} />}
    </section>
  );
}

function KeyRow({ info, onSaid, onSecret }: { info: Key } & Omit<KeysSectionProps, 'canManage'>) {
  const revoke = useRevokeKey((key) => onSaid(`The key ${key.name ?? hintOf(key.hint)} of ${holderOf(key)} was revoked.`));
  const label = info.name ?? `key ${hintOf(info.hint)}`;
  return (
    <tr>
      <th scope="row">{info.name ?? <span className="muted">unnamed</span>}</th>
      <td>{holderOf(info)}</td>
      <td>
        <code>{hintOf(info.hint)}</code>
      </td>
      <td>{info.grants.length === 0 ? 'none' : info.grants.join(', ')}</td>
      <td>
        <span className={`badge badge-key-${info.status}`}>{STATUS_LABEL[info.status]}</span>
      </td>
      <td>
        <MaybeRelativeTime at={info.created_at} />
        {info.created_by !== null && <> by {info.created_by}</>}
      </td>
      <td>
        <MaybeRelativeTime at={info.expires_at} none="never" />
      </td>
      <td>
        <MaybeRelativeTime at={info.last_used_at} none="never" />
      </td>
      <td>
        <div className="key-actions">
          {info.status === 'active' && info.rotated_to === null && (
            <RotateKeyButton info={info} label={label} onSaid={onSaid} onSecret={onSecret} />
          )}
          {info.status !== 'revoked' && (
            <ConfirmButton
              label="Revoke"
              question={`Revoke ${label} of ${holderOf(info)}? It is refused from its next call on.`}
              confirmLabel={`Revoke ${label}`}
              pending={revoke.isPending}
              error={revoke.error}
              onConfirm={() => revoke.mutate(info.id)}
              danger
            />
          )}
        </div>
      </td>
    </tr>
  );
}
