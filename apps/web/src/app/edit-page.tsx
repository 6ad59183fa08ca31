// The editor page with what other features add to it: the policy panels beside a policy's text, and the
// three-way merge a conflicting save opens. Loaded lazily with the editor (features never import each other).
import { documentKindOf } from '@tollgate/engine';
import { EditorPage } from '../features/editor/components/editor-page.tsx';
import { languageOf } from '../features/editor/editor-language.ts';
import { MergeView } from '../features/merge/components/merge-view.tsx';
import { PolicyPanels } from '../features/policy-check/components/policy-panels.tsx';

export function EditPage({ id, canSave, backHref }: { id: string; canSave: boolean; backHref: string }) {
  const policy = documentKindOf(id) === 'policy';
  return (
    <EditorPage
      id={id}
      canSave={canSave}
      backHref={backHref}
      renderAside={policy ? (aside) => <PolicyPanels id={aside.id} text={aside.text} onReveal={aside.reveal} /> : undefined}
      renderConflict={(conflict) => <MergeView {...conflict} language={languageOf(conflict.id)} />}
    />
  );
}
