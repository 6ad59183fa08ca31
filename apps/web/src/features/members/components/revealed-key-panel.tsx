// A key just made or rotated, shown this once (components/shown-once-panel.tsx).
import { ShownOncePanel } from '../../../components/shown-once-panel.tsx';
import { holderOf, type RevealedKey } from '../key-forms.ts';

export function RevealedKeyPanel({ revealed, onClose }: { revealed: RevealedKey; onClose: () => void }) {
  const { info } = revealed;
  return (
    <ShownOncePanel
      id="revealed-key-heading"
      heading={`New key${info.name === null ? '' : ` ${info.name}`} for ${holderOf(info)}`}
      noun="key"
      note="Copy it now and keep it somewhere safe: Tollgate keeps only its hash, and closing this panel forgets it."
      secret={revealed.secret}
      onClose={onClose}
    />
  );
}
