// Gives Monaco's JSON language the policy@1 schema for completion and hover on `*.policy.json` models.
// Monaco's own JSON diagnostics stay off: the engine's markers are the one validation truth (docs/console.md).
import { POLICY_JSON_SCHEMA, POLICY_JSON_SCHEMA_URI } from '@tollgate/engine';

let registering: Promise<void> | undefined;

/** Registers the schema once; the editor names its model after the document id so the file match applies. */
export function registerPolicySchema(): Promise<void> {
  registering ??= import('monaco-editor/languages/features/json/register.js').then(({ jsonDefaults }) => {
    jsonDefaults.setDiagnosticsOptions({
      validate: false,
      enableSchemaRequest: false,
      schemas: [{ uri: POLICY_JSON_SCHEMA_URI, fileMatch: ['*.policy.json'], schema: POLICY_JSON_SCHEMA }],
    });
  });
  return registering;
}
