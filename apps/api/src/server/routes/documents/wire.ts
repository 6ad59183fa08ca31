// Stored versions, impacts and diagnostics as the document routes answer them (snake_case on the wire).
import { documentKindOf, type validateDocument } from '@tollgate/engine';
import type { DocumentVersion, EditImpact, StoredDocument } from '@tollgate/store';
import type { ActivationRow } from '../../state/activations/model.ts';

type Diagnostic = ReturnType<typeof validateDocument>['problems'][number];

export function versionJson(v: DocumentVersion) {
  return {
    sequence: v.sequence,
    author: { kind: v.author.kind, label: v.author.label },
    reason: v.reason,
    based_on: v.basedOn,
    created_at: v.createdAt,
    running: v.running,
    rejected: v.rejected,
    problems: [...v.problems],
    digest: v.digest,
    bytes: v.bytes,
  };
}

/** Who last made a version run (state/activations/model.ts), or null when nobody did through the API. */
export function activatedByJson(row: ActivationRow | undefined) {
  return row === undefined ? null : { id: row.member_id, name: row.member_name, at: row.activated_at };
}

export function impactJson(i: EditImpact) {
  return {
    widens_security: i.widensSecurity,
    widened_subjects: [...i.widenedSubjects],
    ...(i.changes === undefined ? {} : { changes: [...i.changes] }),
  };
}

export function documentJson(d: StoredDocument) {
  return { id: d.id, kind: documentKindOf(d.id) ?? null, version: versionJson(d), text: d.text };
}

export function diagnosticJson(d: Diagnostic, fallback: 'error' | 'warning') {
  const severity = d.severity === 'error' || d.severity === 'warning' || d.severity === 'info' ? d.severity : fallback;
  return {
    source: 'document' as const,
    code: d.code,
    severity,
    message: d.message,
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.path !== undefined ? { path: d.path } : {}),
  };
}
