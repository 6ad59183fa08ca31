// The shapes the editor reads and writes (docs/api.md: GET /v1/documents/{id}, POST /v1/documents/{id}/edits).
import type { ReasonItem } from '../../../components/reason-list.tsx';
export interface EditorVersion {
  sequence: number;
  reason: string;
  based_on: number | null;
  running: boolean;
  rejected: boolean;
}

export interface EditOutcome {
  status: 'applied' | 'saved_not_running' | 'refused' | 'rejected' | 'conflict';
  version?: EditorVersion;
  reasons: ReasonItem[];
  impact: { widens_security: boolean; widened_subjects: string[] };
}
