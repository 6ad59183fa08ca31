// The editor page with what other features add to it: the policy panels beside a policy's text, and the
// three-way merge a conflicting save opens. Loaded lazily with the editor (features never import each other).
import { documentKindOf } from '@tollgate/engine';
import { EditorPage } from '../features/editor/components/editor-page.tsx';
import { languageOf } from '../features/editor/editor-language.ts';
import { MergeView } from '../features/merge/components/merge-view.tsx';
import { PolicyPanels } from '../features/policy-check/components/policy-panels.tsx';

interface EditPageProps {
  id: string;
  canSave: boolean;
  backHref: string;
  /** The Rules page for this document, linked when it is a rule sheet. */
  rulesHref: string;
}

export function EditPage({ id, canSave, backHref, rulesHref }: EditPageProps) {
  const kind = documentKindOf(id);
  const policy = kind === 'policy';
  return (
    <EditorPage
      id={id}
      canSave={canSave}
      backHref={backHref}
      formHref={kind === 'sheet' ? rulesHref : undefined}
      renderAside={
        policy ? (aside) => <PolicyPanels id={aside.id} text={aside.text} canSave={canSave} onReveal={aside.reveal} /> : undefined
      }
      renderConflict={(conflict) => <MergeView {...conflict} language={languageOf(conflict.id)} />}
    />
  );
}
