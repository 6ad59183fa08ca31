// Activate one stored version, after a confirmation (owners and admins).

import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { usePostActivate } from '../api/post-activate.ts';
import type { DocumentVersion } from '../api/types.ts';

export function ActivateAction({ id, version, newest }: { id: string; version: DocumentVersion; newest: number }) {
  const activate = usePostActivate();
  if (version.running || version.rejected) return null;
  return (
    <ConfirmButton
      className="confirm-action"
      label={`Activate version ${version.sequence}`}
      question={`Run version ${version.sequence} of ${id}?`}
      confirmLabel={`Confirm activating version ${version.sequence}`}
      pending={activate.isPending}
      error={activate.error}
      onConfirm={() => activate.mutate({ id, sequence: version.sequence, newest })}
    />
  );
}
