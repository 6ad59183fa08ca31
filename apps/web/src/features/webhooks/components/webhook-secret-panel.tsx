// A signing secret just made or rotated, shown this once with a Copy button, as a new key is
// (features/members/components/revealed-key-panel.tsx): it takes the focus when it opens, and closing it drops
// the secret (the section's state was its only holder).
import { useEffect, useRef, useState } from 'react';
import type { RevealedSecret } from '../webhook-forms.ts';

export function WebhookSecretPanel({ revealed, onClose }: { revealed: RevealedSecret; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const copy = () => {
    navigator.clipboard.writeText(revealed.secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <section className="revealed-key stack" aria-labelledby="webhook-secret-heading">
      <h3 id="webhook-secret-heading" ref={heading} tabIndex={-1}>
        {revealed.why === 'new' ? 'Signing secret' : 'New signing secret'} for {revealed.info.url}
      </h3>
      <p className="revealed-key-note">
        <strong>This is the only time you will see this secret.</strong> Copy it to where your receiver verifies signatures: Tollgate never
        shows it again, and closing this panel forgets it.
      </p>
      <label className="field">
        <span>The signing secret</span>
        <input
          className="revealed-key-secret"
          readOnly
          autoComplete="off"
          spellCheck={false}
          value={revealed.secret}
          onFocus={(event) => event.target.select()}
        />
      </label>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={copy}>
          Copy the secret
        </button>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p role="status" className="revealed-key-copied">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser did not allow copying: select the secret and copy it.'
            : ''}
      </p>
    </section>
  );
}
