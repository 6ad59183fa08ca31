// A draft from a template, as the gallery's form shows it: problems by parameter, the document text and
// its examples, and the id the new document gets.
import { createFromTemplate, documentKindOf } from '@tollgate/engine';

export type Draft =
  | { ok: true; text: string; examples: string }
  | {
      ok: false;
      /** Problems keyed by parameter name (from `/params/<name>`). */
      byParameter: Record<string, string[]>;
      /** Problems about the template itself. */
      general: string[];
    };

/**
 * Builds the draft's text (pretty JSON with a final newline) and its example suite, or lists what is wrong.
 *
 * @example
 * buildDraft('support-refunds', { auto_limit: '50' }) // { ok: true, text: '{\n  "schema": ...', examples: '...' }
 */
export function buildDraft(template: string, params: Readonly<Record<string, string>>): Draft {
  const result = createFromTemplate(template, params);
  if (result.ok) {
    return { ok: true, text: `${JSON.stringify(result.document, null, 2)}\n`, examples: `${JSON.stringify(result.examples, null, 2)}\n` };
  }
  const byParameter: Record<string, string[]> = {};
  const general: string[] = [];
  for (const error of result.errors) {
    const name = error.path?.startsWith('/params/') ? decodePointerToken(error.path.slice('/params/'.length)) : undefined;
    if (name === undefined) general.push(error.message);
    else byParameter[name] = [...(byParameter[name] ?? []), error.message];
  }
  return { ok: false, byParameter, general };
}

/** The id of a new policy called `name`: `policies/<name>.policy.json`. */
export function draftId(name: string): string {
  return `policies/${name}.policy.json`;
}

/** Why `name` cannot name a new policy, or null when it can. Example: `checkDraftName('Refunds')` is a message. */
export function checkDraftName(name: string): string | null {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) return 'use lowercase letters, digits, - and _, starting with a letter or digit';
  if (name.length > 100) return 'at most 100 characters';
  return documentKindOf(draftId(name)) === 'policy' ? null : 'this does not name a policy document';
}

function decodePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
