// Activate one stored version, after a confirmation (owners and admins).
import { usePostActivate } from '../api/post-activate.ts';
import type { DocumentVersion } from '../api/types.ts';
import { ConfirmAction } from './confirm-action.tsx';

export function ActivateAction({ id, version }: { id: string; version: DocumentVersion }) {
  const activate = usePostActivate();
  if (version.running || version.rejected) return null;
  return (
    <ConfirmAction
      label={`Activate version ${version.sequence}`}
      question={`Run version ${version.sequence} of ${id}?`}
      confirmLabel={`Confirm activating version ${version.sequence}`}
      pending={activate.isPending}
      error={activate.error}
      onConfirm={() => activate.mutate({ id, sequence: version.sequence })}
    />
  );
}
