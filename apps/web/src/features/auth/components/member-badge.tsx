// The signed-in member in the header: name, role and a sign-out button.
import { useMe } from '../api/get-me.ts';

export function MemberBadge({ memberKey, onSignOut }: { memberKey: string; onSignOut: () => void }) {
  const me = useMe(memberKey);
  const name = me.data?.name ?? 'Signed in';
  return (
    <div className="member">
      <span className="member-name">{name}</span>
      {me.data?.role && <span className="badge">{me.data.role}</span>}
      <button type="button" className="button" onClick={onSignOut}>
        Sign out
      </button>
    </div>
  );
}
