// The one problem shape on the wire (docs/documents.md, "Codes"): every route that reports problems in a
// document, a body or a compile answers a list of these, the engine's Diagnostic as it is.
import { z } from '@hono/zod-openapi';
import { type Diagnostic, diagnosticJson } from '@tollgate/engine/source';

const place = z.number().int().min(1);

export const DiagnosticSchema = z
  .object({
    code: z.string().openapi({ description: 'A code of the registry (docs/documents.md, "Codes"); scripts match on it.' }),
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    path: z.string().optional().openapi({ description: 'A JSON Pointer into the document ("" is the whole document).' }),
    line: place.optional().openapi({ description: '1-based line where the text places the problem.' }),
    column: place.optional().openapi({ description: '1-based column (UTF-16 code units, as Monaco counts).' }),
    endLine: place.optional(),
    endColumn: place.optional().openapi({ description: 'Just past the end (exclusive), as Monaco reads it.' }),
  })
  .strict()
  .openapi('Diagnostic');

export type DiagnosticJson = z.infer<typeof DiagnosticSchema>;

/** The wire form of diagnostics: only the fields that are set, in the schema's shape. */
export function diagnosticsJson(list: readonly Diagnostic[]): DiagnosticJson[] {
  return list.map(diagnosticJson);
}
