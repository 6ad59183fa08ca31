// The shortcuts, listed on the page: a one-line reminder always, the full list when "?" (or the button) shows it.
import { SHORTCUTS } from './inbox-keys.ts';

export function InboxShortcuts({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  return (
    <div className="inbox-shortcuts">
      <p className="muted">
        Keys: j/k move · a approve · d deny · r reason · / filter ·{' '}
        <button type="button" className="link-button" aria-expanded={shown} aria-controls="inbox-shortcuts" onClick={onToggle}>
          ? all shortcuts
        </button>
      </p>
      {shown && (
        <section id="inbox-shortcuts" aria-label="Keyboard shortcuts">
          <dl className="inbox-shortcut-list">
            {SHORTCUTS.map((s) => (
              <div key={s.keys}>
                <dt>
                  <kbd>{s.keys}</kbd>
                </dt>
                <dd>{s.what}</dd>
              </div>
            ))}
          </dl>
          <p className="muted">Shortcuts never act while you type in a field.</p>
        </section>
      )}
    </div>
  );
}
