// The store by kind: each group an accessible list of documents with status, running version and problems.
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useDocuments } from '../api/get-documents.ts';
import { groupByKind } from '../api/group-by-kind.ts';
import { DocumentRow } from './document-row.tsx';

export function DocumentTree({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const documents = useDocuments();
  if (documents.isPending) return <Loading label="Loading documents" />;
  if (documents.isError) return <ErrorNotice error={documents.error} />;
  if (documents.data.length === 0) return <Empty>The store has no documents yet.</Empty>;
  return (
    <nav aria-label="Document tree" className="tree">
      {groupByKind(documents.data).map((group) => (
        <div key={group.kind} className="tree-group">
          <h3 className="tree-kind" id={`kind-${group.kind}`}>
            {group.kind}
          </h3>
          {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
          <ul role="list" aria-labelledby={`kind-${group.kind}`} className="tree-list">
            {group.documents.map((document) => (
              <DocumentRow key={document.id} document={document} selected={document.id === selected} onSelect={onSelect} />
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
