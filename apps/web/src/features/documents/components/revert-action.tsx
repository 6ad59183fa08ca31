// Revert to the version that ran before the running one, after a confirmation (owners and admins) that names
// that version and shows, for a policy, the impact preview of running it.

import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { useRevertTarget } from '../api/get-history.ts';
import { usePostRevert } from '../api/post-revert.ts';
import { ImpactPreviewPanel } from './impact-preview.tsx';

export function RevertAction({ id, newest, isPolicy }: { id: string; newest: number; isPolicy: boolean }) {
  const revert = usePostRevert();
  const target = useRevertTarget(id).data ?? null;
  return (
    <ConfirmButton
      className="confirm-action"
      label="Revert"
      question={
        target === null
          ? 'Run the version that ran before the running one?'
          : `Run version ${target} again (it ran before the running one)?`
      }
      confirmLabel="Confirm revert"
      pending={revert.isPending}
      error={revert.error}
      onConfirm={() => revert.mutate({ id, newest })}
    >
      {isPolicy && target !== null && <ImpactPreviewPanel id={id} candidate={target} />}
    </ConfirmButton>
  );
}
