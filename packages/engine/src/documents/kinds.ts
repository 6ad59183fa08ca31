// Which kind of document an id names, read off its path (docs/documents.md, "Kinds").

export const DOCUMENT_KINDS = ['catalogue', 'sheet', 'colang', 'policy', 'examples', 'ruleset', 'agent', 'settings', 'upstreams'] as const;

/** The nine kinds of document a person authors; each has a validator and an impact analyser. */
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** One file name inside a folder: no slash, and something before the suffix. */
const NAME = '[^/]+';

const PATTERNS: readonly [RegExp, DocumentKind][] = [
  [/^catalogue\.(?:yaml|yml|json)$/, 'catalogue'],
  [new RegExp(`^catalogues/${NAME}\\.(?:yaml|yml|json)$`), 'catalogue'],
  [new RegExp(`^sheets/${NAME}\\.rules\\.(?:yaml|yml)$`), 'sheet'],
  [new RegExp(`^colang/${NAME}\\.co$`), 'colang'],
  [new RegExp(`^policies/${NAME}\\.policy\\.json$`), 'policy'],
  [new RegExp(`^policies/${NAME}\\.examples\\.json$`), 'examples'],
  [new RegExp(`^rulesets/${NAME}\\.ruleset\\.json$`), 'ruleset'],
  [new RegExp(`^agents/${NAME}\\.agent\\.yaml$`), 'agent'],
  [/^settings\.yaml$/, 'settings'],
  [/^mcp\/servers\.yaml$/, 'upstreams'],
];

/**
 * The kind of document an id names, from its path (forward slashes, case as written); undefined for
 * any other path.
 *
 * @example
 * documentKindOf('sheets/shop.rules.yaml') // 'sheet'
 * documentKindOf('policies/refunds.policy.json') // 'policy'
 * documentKindOf('policies/refunds.examples.json') // 'examples'
 * documentKindOf('notes.txt') // undefined
 */
export function documentKindOf(id: string): DocumentKind | undefined {
  for (const [pattern, kind] of PATTERNS) if (pattern.test(id)) return kind;
  return undefined;
}

/**
 * Whether a string is one of the nine kinds.
 *
 * @example
 * isDocumentKind('ruleset') // true
 */
export function isDocumentKind(value: string): value is DocumentKind {
  return (DOCUMENT_KINDS as readonly string[]).includes(value);
}

const POLICY_ID = new RegExp(`^policies/(${NAME})\\.policy\\.json$`);

/**
 * The id of a policy's example suite (`policies/<name>.examples.json` beside `policies/<name>.policy.json`),
 * or undefined when `policyId` names no policy.
 *
 * @example
 * exampleSuiteIdOf('policies/refunds.policy.json') // 'policies/refunds.examples.json'
 */
export function exampleSuiteIdOf(policyId: string): string | undefined {
  const name = POLICY_ID.exec(policyId)?.[1];
  return name === undefined ? undefined : `policies/${name}.examples.json`;
}
