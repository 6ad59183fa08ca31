// The document shapes the API answers (docs/api.md, GET /v1/documents and friends).
export interface DocumentProblem {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export interface DocumentSummary {
  id: string;
  kind: string | null;
  status: 'running' | 'newer_rejected' | 'newer_not_running' | 'rejected_only' | 'not_loaded';
  running_sequence: number | null;
  versions: number;
  problems: DocumentProblem[];
}

export interface DocumentVersion {
  sequence: number;
  author: { kind: string; label: string };
  reason: string;
  based_on: number | null;
  created_at: string;
  running: boolean;
  rejected: boolean;
  problems: string[];
}
