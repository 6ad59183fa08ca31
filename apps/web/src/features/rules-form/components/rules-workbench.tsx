// The Rules page's body: the form over a sheet beside its YAML in Monaco, both editing one text. The engine
// compiles every change; its problems show beside the rule at fault and the Colang and overlay follow.
import { compileSheet, createSheetCache, type LintCatalogue } from '@tollgate/engine';
import { type ReactNode, useCallback, useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { CodeEditor, type CodeEditorHandle } from '../../../lib/monaco/code-editor.tsx';
import { addRule, type EditResult, type FieldEdit, removeRule, removeRuleKey, setRuleField } from '../edit-sheet-yaml.ts';
import { placeProblemsByRow } from '../problems-by-row.ts';
import { readRuleRows } from '../read-rule-rows.ts';
import { AddRuleForm } from './add-rule-form.tsx';
import { RowProblems } from './row-problems.tsx';
import { RuleRow } from './rule-row.tsx';

/** What the save panel is given: the text to save, and a way to replace it (a reload after a conflict). */
export interface SaveContext {
  text: string;
  replaceText(text: string): void;
}

interface RulesWorkbenchProps {
  id: string;
  initialText: string;
  catalogue: LintCatalogue | undefined;
  /** The save form, supplied by the app layer (features never import each other). */
  renderSave: (context: SaveContext) => ReactNode;
}

const NO_PROBLEMS: [] = [];

export function RulesWorkbench({ id, initialText, catalogue, renderSave }: RulesWorkbenchProps) {
  const [text, setText] = useState(initialText);
  const [failure, setFailure] = useState<string | null>(null);
  const editor = useRef<CodeEditorHandle>(null);
  const cache = useMemo(() => createSheetCache(), []);
  const rows = useMemo(() => readRuleRows(text), [text]);
  const compiledText = useDeferredValue(text);
  const compiled = useMemo(() => compileSheet(compiledText, catalogue, id, cache), [compiledText, catalogue, id, cache]);
  const problems = compiled.ok ? compiled.lints : compiled.problems;
  const placed = useMemo(() => placeProblemsByRow(problems, rows.ok ? rows.rows : []), [problems, rows]);

  const replaceText = useCallback((next: string) => {
    setText(next);
    editor.current?.setText(next);
  }, []);
  /** Writes an edit's text; answers why it could not, for the field that asked to show beside itself. */
  const write = useCallback(
    (result: EditResult): string | undefined => {
      if (!result.ok) return result.reason;
      setFailure(null);
      replaceText(result.text);
      return undefined;
    },
    [replaceText],
  );
  /** Writes an edit whose failure shows at the top of the form (adding or removing rules and keys). */
  const apply = useCallback((result: EditResult) => setFailure(write(result) ?? null), [write]);
  const jump = useCallback((line: number) => editor.current?.goTo(line, 1), []);
  // The rows' edits read the text through a ref, so their callbacks stay the same from keystroke to
  // keystroke and a row whose rule did not change is not rendered again.
  const current = useRef(text);
  useLayoutEffect(() => {
    current.current = text;
  }, [text]);
  const editRow = useCallback((index: number, edit: FieldEdit) => write(setRuleField(current.current, index, edit)), [write]);
  const removeRowKey = useCallback((index: number, key: string) => apply(removeRuleKey(current.current, index, key)), [apply]);
  const removeRow = useCallback((index: number) => apply(removeRule(current.current, index)), [apply]);

  return (
    <div className="rules-workbench">
      <section className="panel rules-form" aria-labelledby="rules-form-heading">
        <div className="panel-head">
          <PageHeading id="rules-form-heading" title="Rules of" subject={id} />
          <span className="muted">{rows.ok ? `${rows.rows.length} ${rows.rows.length === 1 ? 'rule' : 'rules'}` : ''}</span>
        </div>
        <p className={`status ${compiled.ok ? 'status-valid' : 'status-invalid'}`} role="status" aria-label="Compile status">
          <span className="status-dot" aria-hidden="true" />
          {compiled.ok ? 'Compiles' : `Refused: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}`}
          {compiled.ok && compiled.lints.length > 0 && ` · ${compiled.lints.length} ${compiled.lints.length === 1 ? 'lint' : 'lints'}`}
        </p>
        <RowProblems label="Problems with the sheet" problems={placed.sheet} onJump={jump} />
        {failure !== null && (
          <p className="state state-error" role="alert">
            {failure}
          </p>
        )}
        {!rows.ok ? (
          <p className="state state-error">The form cannot show this sheet: {rows.reason}. Fix it in the YAML and the form comes back.</p>
        ) : (
          <>
            {rows.rows.length === 0 && <p className="state state-empty">The sheet has no rules yet. Add one below.</p>}
            {rows.rows.map((row) => (
              <RuleRow
                // Rules are identified by their place; a removed rule moves the ones after it up.
                key={row.index}
                row={row}
                catalogue={catalogue}
                problems={placed.byRow.get(row.index) ?? NO_PROBLEMS}
                onEdit={editRow}
                onRemoveKey={removeRowKey}
                onRemove={removeRow}
                onJump={jump}
              />
            ))}
            <AddRuleForm
              catalogue={catalogue}
              taken={rows.rows.map((r) => r.fields.action)}
              onAdd={(action) => apply(addRule(text, action))}
            />
          </>
        )}
      </section>
      <section className="panel rules-yaml" aria-labelledby="rules-yaml-heading">
        <h2 id="rules-yaml-heading" className="panel-title">
          YAML
        </h2>
        <CodeEditor ref={editor} initialText={text} language="yaml" diagnostics={problems} label="Sheet YAML" onChange={setText} />
        {renderSave({ text, replaceText })}
        <div className="compiled-panes">
          <figure className="code-figure compiled-pane">
            <figcaption className="compiled-caption">Colang</figcaption>
            <ScrollPane label="Colang" className="document-text compiled-text">
              {compiled.ok ? compiled.colang : 'The sheet is refused; nothing compiled until its problems are fixed.'}
            </ScrollPane>
          </figure>
          <figure className="code-figure compiled-pane">
            <figcaption className="compiled-caption">Overlay</figcaption>
            <ScrollPane label="Overlay" className="document-text compiled-text">
              {compiled.ok ? `${JSON.stringify(compiled.overlay, null, 2)}\n` : '—'}
            </ScrollPane>
          </figure>
        </div>
      </section>
    </div>
  );
}
