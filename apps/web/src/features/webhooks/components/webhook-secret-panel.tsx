// A webhook's signing secret just made or rotated, shown this once, as a new key is
// (components/shown-once-panel.tsx).
import { ShownOncePanel } from '../../../components/shown-once-panel.tsx';
import type { RevealedSecret } from '../webhook-forms.ts';

export function WebhookSecretPanel({ revealed, onClose }: { revealed: RevealedSecret; onClose: () => void }) {
  return (
    <ShownOncePanel
      id="webhook-secret-heading"
      level={3}
      heading={`${revealed.why === 'new' ? 'Signing secret' : 'New signing secret'} for ${revealed.info.url}`}
      noun="secret"
      label="The signing secret"
      note="Copy it to where your receiver verifies signatures: Tollgate never shows it again, and closing this panel forgets it."
      secret={revealed.secret}
      onClose={onClose}
    />
  );
}
