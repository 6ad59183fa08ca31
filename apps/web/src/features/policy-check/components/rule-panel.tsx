// The policy's rules beside the editor, each with its effect badge; clicking one reveals it in the text.
import { useMemo } from 'react';
import { outlineRules } from '../rule-outline.ts';

const EFFECT_LABELS = { allow: 'allow', require_approval: 'require approval', deny: 'deny', unknown: 'no effect' } as const;

export function RulePanel({ text, onReveal }: { text: string; onReveal: (line: number, column: number) => void }) {
  const rules = useMemo(() => outlineRules(text), [text]);
  return (
    <section className="rule-panel" aria-labelledby="rules-heading">
      <h2 id="rules-heading" className="panel-title">
        Rules
      </h2>
      {rules === null && <p className="state">The text is not JSON; the rules show again once it reads.</p>}
      {rules?.length === 0 && <p className="state state-empty">No rules: the default decides every call.</p>}
      {rules !== null && rules.length > 0 && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ol role="list" aria-label="Rules" className="rule-list">
          {rules.map((rule) => (
            <li key={rule.index}>
              <button type="button" className="rule-jump" onClick={() => onReveal(rule.at.line, rule.at.column)}>
                <span className="rule-id">{rule.label}</span>
                <span className={`badge badge-effect badge-effect-${rule.effect}`}>{EFFECT_LABELS[rule.effect]}</span>
                <span className="muted rule-line">line {rule.at.line}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
