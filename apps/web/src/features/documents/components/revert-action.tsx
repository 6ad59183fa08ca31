// Revert to the version that ran before the running one, after a confirmation (owners and admins).

import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { usePostRevert } from '../api/post-revert.ts';

export function RevertAction({ id, newest }: { id: string; newest: number }) {
  const revert = usePostRevert();
  return (
    <ConfirmButton
      className="confirm-action"
      label="Revert"
      question="Run the version that ran before the running one?"
      confirmLabel="Confirm revert"
      pending={revert.isPending}
      error={revert.error}
      onConfirm={() => revert.mutate({ id, newest })}
    />
  );
}
