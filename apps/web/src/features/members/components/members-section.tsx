// The members table: name, role and when added. Owners and admins change a role with the row's select (the API
// judges it; a refusal such as LAST_OWNER shows in the row), remove a member after confirming, add one, and open
// a member's signing keys (passkeys, device keys, the custodial key) under their row to revoke one.
import { useId, useState } from 'react';
import { ApiRefusal } from '../../../components/api-refusal.tsx';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { MaybeRelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useAddMember } from '../api/add-member.ts';
import { useMembers } from '../api/get-members.ts';
import { useRemoveMember } from '../api/remove-member.ts';
import { useSetMemberRole } from '../api/set-member-role.ts';
import { type Member, ROLES, type Role } from '../api/types.ts';
import { CredentialsTable } from './credentials-table.tsx';

interface SectionProps {
  canManage: boolean;
  onSaid: (text: string) => void;
}

export function MembersSection({ canManage, onSaid }: SectionProps) {
  const members = useMembers();
  return (
    <section className="stack" aria-labelledby="members-list-heading">
      <h2 id="members-list-heading">Members</h2>
      {members.isPending && <Loading label="Loading the members" />}
      {members.isError && <ErrorNotice error={members.error} />}
      {members.isSuccess && (
        <ScrollPane as="div" label="Members, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table members-table">
            <caption>Members, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Added</th>
                {canManage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {members.data.map((member) => (
                <MemberRow key={member.id} member={member} canManage={canManage} onSaid={onSaid} />
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
      {canManage && <AddMemberForm onSaid={onSaid} />}
    </section>
  );
}

function MemberRow({ member, canManage, onSaid }: { member: Member } & SectionProps) {
  const [keysOpen, setKeysOpen] = useState(false);
  const setRole = useSetMemberRole((changed) => onSaid(`${changed.name} is now ${changed.role}.`));
  const remove = useRemoveMember((removed) => onSaid(`${removed.name} was removed and their keys revoked.`));
  return (
    <>
      <tr>
        <th scope="row">{member.name}</th>
        <td>
          {canManage ? (
            <div className="stack-tight">
              <select
                className="select"
                aria-label={`Role of ${member.name}`}
                value={member.role}
                aria-describedby={setRole.isError ? `role-refusal-${member.id}` : undefined}
                onChange={(event) => {
                  if (!setRole.isPending) setRole.mutate({ id: member.id, role: event.target.value as Role });
                }}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
              <ApiRefusal id={`role-refusal-${member.id}`} error={setRole.error} />
            </div>
          ) : (
            member.role
          )}
        </td>
        <td>
          <MaybeRelativeTime at={member.created_at} />
        </td>
        {canManage && (
          <td>
            <div className="key-actions">
              <button type="button" className="button" aria-expanded={keysOpen} onClick={() => setKeysOpen(!keysOpen)}>
                Signing keys
              </button>
              <ConfirmButton
                label="Remove"
                question={`Remove ${member.name}? Their keys are revoked at once.`}
                confirmLabel={`Remove ${member.name}`}
                pending={remove.isPending}
                error={remove.error}
                onConfirm={() => remove.mutate(member.id)}
                danger
              />
            </div>
          </td>
        )}
      </tr>
      {canManage && keysOpen && (
        <tr>
          <td colSpan={4}>
            <CredentialsTable member={member.id} caption={`Signing keys of ${member.name}, custodial first`} onSaid={onSaid} />
          </td>
        </tr>
      )}
    </>
  );
}

function AddMemberForm({ onSaid }: { onSaid: (text: string) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const add = useAddMember((member) => {
    onSaid(`${member.name} was added as ${member.role}.`);
    setName('');
  });
  return (
    <form
      className="members-form stack"
      aria-labelledby="add-member-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (!add.isPending) add.mutate({ name: name.trim(), role });
      }}
    >
      <h3 id="add-member-heading">Add member</h3>
      <div className="members-form-row">
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={128} autoComplete="off" />
        </label>
        {/* The label names the select alone (a label around a select would read its chosen option too). */}
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} className="select" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={add.isPending}>
          Add member
        </button>
      </div>
      <ApiRefusal error={add.error} />
    </form>
  );
}
