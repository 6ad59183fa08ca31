// The texts of two versions in Monaco's diff editor.
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { DiffEditor } from '../../../lib/monaco/diff-editor.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useVersion } from '../api/get-version.ts';

function languageOf(id: string): 'json' | 'yaml' | 'plaintext' {
  if (id.endsWith('.json')) return 'json';
  return /\.ya?ml$/.test(id) ? 'yaml' : 'plaintext';
}

export function VersionDiff({ id, pair }: { id: string; pair: VersionPair }) {
  const from = useVersion(id, pair.from);
  const to = useVersion(id, pair.to);
  const error = from.error ?? to.error;
  if (error) return <ErrorNotice error={error} />;
  if (!from.isSuccess || !to.isSuccess) return <Loading label="Loading the two versions" />;
  return (
    <DiffEditor
      original={from.data.text}
      modified={to.data.text}
      language={languageOf(id)}
      originalLabel={`Version ${pair.from}`}
      modifiedLabel={`Version ${pair.to}`}
    />
  );
}
