// A key just made or rotated, shown this once with a Copy button. It takes the focus when it opens, so a
// keyboard or screen reader meets it first; closing it drops the key (the page's state was its only holder).
import { useEffect, useRef, useState } from 'react';
import { holderOf, type RevealedKey } from '../key-forms.ts';

export function RevealedKeyPanel({ revealed, onClose }: { revealed: RevealedKey; onClose: () => void }) {
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
  const { info } = revealed;
  return (
    <section className="revealed-key stack" aria-labelledby="revealed-key-heading">
      <h2 id="revealed-key-heading" ref={heading} tabIndex={-1}>
        New key{info.name === null ? '' : ` ${info.name}`} for {holderOf(info)}
      </h2>
      <p className="revealed-key-note">
        <strong>This is the only time you will see this key.</strong> Copy it now and keep it somewhere safe: Tollgate keeps only its hash,
        and closing this panel forgets it.
      </p>
      <label className="field">
        <span>The key</span>
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
          Copy the key
        </button>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p role="status" className="revealed-key-copied">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser did not allow copying: select the key and copy it.'
            : ''}
      </p>
    </section>
  );
}
