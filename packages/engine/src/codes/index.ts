// The one code registry: every code Tollgate answers, in one table (code -> severity, domains, one-line
// meaning, HTTP status for API errors). Each reader's registry (POLICY_CODES, SHEET_CODES, ...) is a view of
// it, docs' code tables are rendered from it (scripts/render-code-tables.ts), and so is the API's Error.code
// enum. How to add a code: CONTRIBUTING.md; how codes are spelled: docs/documents.md, "How codes are spelled".
import { API_CODES, type ApiCode } from './api-codes.ts';
import { CLI_CODES } from './cli.ts';
import { DOCUMENT_ONLY_CODES } from './documents.ts';
import type { CodeDomain, CodeEntry, PolicyKind, SeedDocument } from './entry.ts';
import { GATE_ONLY_CODES } from './gate.ts';
import { MCP_CODES } from './mcp.ts';
import { POLICY_ONLY_CODES } from './policy.ts';
import { RULES_CODES } from './rules.ts';
import { SHARED_CODES } from './shared.ts';

export type { CodeDomain, CodeEntry, PolicyKind, SeedDocument } from './entry.ts';

/** The parts of the table, each code in exactly one (a test holds that no part repeats another's code). */
export const CODE_PARTS = [
  SHARED_CODES,
  POLICY_ONLY_CODES,
  DOCUMENT_ONLY_CODES,
  RULES_CODES,
  GATE_ONLY_CODES,
  MCP_CODES,
  CLI_CODES,
] as const;

// The CLI's part first, so docs/cli.md lists its own codes before those it shares (the parts hold no code twice).
const ENGINE_CODES = {
  ...CLI_CODES,
  ...SHARED_CODES,
  ...POLICY_ONLY_CODES,
  ...DOCUMENT_ONLY_CODES,
  ...RULES_CODES,
  ...GATE_ONLY_CODES,
  ...MCP_CODES,
};

/** A code of the table's parts: every code but those only the API answers. */
export type EngineCode = keyof typeof ENGINE_CODES;

/**
 * Any registered code: a code of the table's parts or an API error code (api-codes.ts). Whatever holds a code
 * Tollgate answers (a Diagnostic, a decision, a finding) is typed by it, so a code the registry lacks, or a
 * misspelt one, fails the typecheck.
 */
export type Code = EngineCode | ApiCode;

/** One entry of the registry as read: its domains listed, API codes folded in with their status. */
export interface CodeInfo {
  code: string;
  severity: CodeEntry['severity'];
  domains: CodeDomain[];
  meaning: string;
  status?: number;
  /** When it occurs, by domain (the text of docs' tables). */
  when: Partial<Record<CodeDomain, string>>;
  policyKind?: PolicyKind;
  /** The reference document that names the code, whose spelling it keeps. */
  seed?: SeedDocument;
}

function fold(): ReadonlyMap<string, CodeInfo> {
  const out = new Map<string, CodeInfo>();
  for (const [code, e] of Object.entries(ENGINE_CODES) as [string, CodeEntry][]) {
    const info: CodeInfo = {
      code,
      severity: e.severity,
      domains: Object.keys(e.in) as CodeDomain[],
      meaning: e.meaning,
      when: { ...e.in },
    };
    if (e.policyKind !== undefined) info.policyKind = e.policyKind;
    if (e.seed !== undefined) info.seed = e.seed;
    out.set(code, info);
  }
  // The API's error codes (api-codes.ts) join the table here, each with its HTTP status.
  for (const [code, api] of Object.entries(API_CODES)) {
    const meaning = api.meaning;
    const known = out.get(code);
    if (known) {
      known.domains.push('api');
      known.status = api.status;
      known.when.api = meaning;
    } else out.set(code, { code, severity: 'error', domains: ['api'], meaning, status: api.status, when: { api: meaning } });
  }
  return out;
}

/** Every code, by name. */
export const CODES: ReadonlyMap<string, CodeInfo> = fold();

/**
 * The codes a reference document names, spelled as it spells them: rule-sheets' in lower case
 * (rule_sheet_unsupported), policy-documents' in upper case (UNKNOWN_MEMBER).
 */
export const SEED_CODES: readonly CodeInfo[] = [...CODES.values()].filter((c) => c.seed !== undefined);

/**
 * The codes of one domain, in the registry's order.
 *
 * @example
 * codesIn('colang').map((c) => c.code) // ['colang_syntax', 'colang_duplicate', 'colang_context_action', 'colang_limit']
 */
export function codesIn(domain: CodeDomain): CodeInfo[] {
  return [...CODES.values()].filter((c) => c.domains.includes(domain));
}

/** The codes of a domain, typed by name (the per-reader registries are these views). */
type CodesOf<D extends CodeDomain> = {
  [K in EngineCode as D extends keyof (typeof ENGINE_CODES)[K]['in'] ? K : never]: { when: string };
};

/**
 * A code the `tollgate` CLI answers of its own (docs/cli.md, "The CLI's codes"): its CliError takes only these, so
 * a code not registered with the `cli` domain fails the typecheck.
 */
export type CliCode = keyof CodesOf<'cli'>;

/**
 * A reader's registry as a view of the table: `{CODE: {when}}` for the codes of its domain.
 *
 * @example
 * codeView('sheet').rule_sheet_limit.when // 'A list (requires, after, ...) holds more than 1000 items; ...'
 */
export function codeView<D extends CodeDomain>(domain: D): Readonly<CodesOf<D>> {
  return Object.fromEntries(codesIn(domain).map((c) => [c.code, { when: c.when[domain] as string }])) as CodesOf<D>;
}

/** policy@1's registry as a view, with each code's group (`kind`) for docs/policy.md. */
export function policyCodeView(): Readonly<{ [K in keyof CodesOf<'policy'>]: { kind: PolicyKind; when: string } }> {
  return Object.fromEntries(
    codesIn('policy').map((c) => [c.code, { kind: c.policyKind as PolicyKind, when: c.when.policy as string }]),
  ) as { [K in keyof CodesOf<'policy'>]: { kind: PolicyKind; when: string } };
}

/** The one-line meaning of a code, for help text (the console's); undefined for a code the registry lacks. */
export function meaningOf(code: string): string | undefined {
  return CODES.get(code)?.meaning;
}
