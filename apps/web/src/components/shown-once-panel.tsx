// A secret just made or rotated (an API key, a webhook's signing secret), shown this once with a Copy button. It
// takes the focus when it opens, so a keyboard or screen reader meets it first; closing it drops the secret (the
// page's state was its only holder).
import { type ReactNode, useEffect, useRef, useState } from 'react';

export interface ShownOnceProps {
  /** The heading's text; `level` 2 on a page, 3 inside a section. */
  heading: ReactNode;
  level?: 2 | 3;
  /** What the secret is called in the words around it: "key", "secret". */
  noun: string;
  /** After "This is the only time you will see this NOUN.": what to do with it, and what Tollgate keeps. */
  note: string;
  secret: string;
  /** The field's label; `The NOUN` unless given. */
  label?: string;
  /** The heading's id, unique on the page. */
  id: string;
  onClose: () => void;
}

export function ShownOncePanel({ heading, level = 2, noun, note, secret, label, id, onClose }: ShownOnceProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="revealed-key stack" aria-labelledby={id}>
      <Heading id={id} ref={headingRef} tabIndex={-1}>
        {heading}
      </Heading>
      <p className="revealed-key-note">
        <strong>This is the only time you will see this {noun}.</strong> {note}
      </p>
      <label className="field">
        <span>{label ?? `The ${noun}`}</span>
        <input
          className="revealed-key-secret"
          readOnly
          autoComplete="off"
          spellCheck={false}
          value={secret}
          onFocus={(event) => event.target.select()}
        />
      </label>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={copy}>
          Copy the {noun}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p role="status" className="revealed-key-copied">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? `The browser did not allow copying: select the ${noun} and copy it.`
            : ''}
      </p>
    </section>
  );
}
