// Revert to the version that ran before the running one, after a confirmation (owners and admins).
import { usePostRevert } from '../api/post-revert.ts';
import { ConfirmAction } from './confirm-action.tsx';

export function RevertAction({ id }: { id: string }) {
  const revert = usePostRevert();
  return (
    <ConfirmAction
      label="Revert"
      question="Run the version that ran before the running one?"
      confirmLabel="Confirm revert"
      pending={revert.isPending}
      error={revert.error}
      onConfirm={() => revert.mutate(id)}
    />
  );
}
