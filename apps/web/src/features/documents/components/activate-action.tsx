// Activate one stored version, after a confirmation (owners and admins) that shows, for a policy, the impact
// preview of running it.

import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { usePostActivate } from '../api/post-activate.ts';
import type { DocumentVersion } from '../api/types.ts';
import { ImpactPreviewPanel } from './impact-preview.tsx';

interface ActivateActionProps {
  id: string;
  version: DocumentVersion;
  newest: number;
  isPolicy: boolean;
}

export function ActivateAction({ id, version, newest, isPolicy }: ActivateActionProps) {
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
    >
      {isPolicy && <ImpactPreviewPanel id={id} candidate={version.sequence} />}
    </ConfirmButton>
  );
}
