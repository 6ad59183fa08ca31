// The shapes the editor reads and writes, from the generated schema (GET /v1/documents/{id}, POST /v1/documents/{id}/edits).
import type { components } from '../../../lib/api/schema';

export type { EditOutcome } from '../../../lib/api/document-edits.ts';
export type EditorVersion = components['schemas']['DocumentVersion'];
/** The running version the editor opens, with its text. */
export type RunningText = components['schemas']['Document'];
