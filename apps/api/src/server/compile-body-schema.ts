// The body of POST /v1/rule-sheets/compile, apart from the compile step (compile-body.ts), so the compile
// thread's worker loads the step without zod.
import { z } from '@hono/zod-openapi';

/** `{sheet | colang, catalogue?, catalogue_format?}`: exactly one of sheet and colang. */
export const CompileBody = z
  .strictObject({
    sheet: z.string().optional().openapi({ description: 'A rule sheet (YAML).' }),
    colang: z.string().optional().openapi({ description: 'A Colang policy; send this or sheet, not both.' }),
    catalogue: z.string().optional().openapi({ description: 'A catalogue, to lint the rules against.' }),
    catalogue_format: z.enum(['yaml', 'json']).optional().openapi({ description: "The catalogue's format; yaml unless given." }),
    source: z.string().max(256).optional().openapi({ description: 'A file name for the source map.' }),
  })
  .openapi('RuleSheetCompileBody');
export type CompileBody = z.infer<typeof CompileBody>;
