// Every query key the console uses, declared once. Keys nest: invalidating a prefix (queryKeys.documents.all)
// refreshes everything under it, which is how a saved edit, an activation or a revert refreshes every view
// of the documents (their list, histories, texts, diffs, catalogue tools and example suites).

export const queryKeys = {
  documents: {
    all: ['documents'] as const,
    list: () => ['documents', 'list'] as const,
    detail: (id: string) => ['documents', 'detail', id] as const,
    /** The catalogue read as lint input, or as the run panel's tools: under its detail, so an edit refreshes them. */
    catalogueRead: (id: string, use: 'lint' | 'tools') => ['documents', 'detail', id, use] as const,
    /** The versions, as a list (the history page and the simulation's version picker share it). */
    history: (id: string) => ['documents', 'history', id] as const,
    /** The version a revert would run: a key of its own, as the history key holds the versions alone. */
    revertTarget: (id: string) => ['documents', 'revert-target', id] as const,
    /** Whether four eyes hold (settings.yaml's review_widening_edits): under its detail, so a settings change refreshes it. */
    reviewSetting: () => ['documents', 'detail', 'settings.yaml', 'review'] as const,
    version: (id: string, sequence: number) => ['documents', 'version', id, sequence] as const,
    diff: (id: string, from: number, to: number) => ['documents', 'diff', id, from, to] as const,
    /** Every catalogue's tools: a refresh of the upstreams moves the definitions they show. */
    allCatalogueTools: ['documents', 'catalogue-tools'] as const,
    catalogueTools: (id: string) => ['documents', 'catalogue-tools', id] as const,
    merge: (id: string, base: number | null) => ['documents', 'merge', id, base] as const,
    exampleSuite: (policyId: string) => ['documents', 'example-suite', policyId] as const,
    /** The suite a simulation reads: the running version, or a draft's newest. */
    exampleSuiteOrDraft: (policyId: string) => ['documents', 'example-suite', policyId, 'or-draft'] as const,
    /** Decision maps read documents of several kinds (agent, catalogue, policies): under `documents`, so any edit refreshes them. */
    agentMap: (agent: string) => ['documents', 'decision-map', 'agent', agent] as const,
    policyMap: (id: string) => ['documents', 'decision-map', 'policy', id] as const,
    /** The impact preview of a candidate version against `running` (null: the running version). */
    impactPreview: (id: string, candidate: number, running: number | null) =>
      ['documents', 'impact-preview', id, candidate, running ?? 'running'] as const,
  },
  rulesets: {
    all: ['rulesets'] as const,
    list: (status: string) => ['rulesets', 'list', status] as const,
    detail: (id: string, versionId: number | null) => ['rulesets', 'detail', id, versionId ?? 'active'] as const,
  },
  approvals: {
    all: ['approvals'] as const,
    list: (filter: string, limit: number) => ['approvals', 'list', filter, limit] as const,
    /** One request read alone, with why it was held (the inbox's detail pane). */
    detail: (id: string) => ['approvals', 'detail', id] as const,
  },
  decisions: {
    all: ['decisions'] as const,
    list: (shadowDiffers: boolean, withArguments: boolean) => ['decisions', 'list', { shadowDiffers, withArguments }] as const,
    /** A decision's receipt (GET /v1/decisions/{call_id}/receipt). */
    receipt: (callId: string) => ['decisions', 'receipt', callId] as const,
  },
  /** The upstream MCP servers and the catalogue tools mapped to their tools (GET /v1/upstreams). */
  upstreams: {
    all: ['upstreams'] as const,
    list: () => ['upstreams', 'list'] as const,
  },
  /** Members, keys and the record of their changes: any change to one refreshes all three (by the prefix). */
  identity: {
    all: ['identity'] as const,
    members: () => ['identity', 'members'] as const,
    keys: () => ['identity', 'keys'] as const,
    changes: () => ['identity', 'changes'] as const,
    /** A member's signing credentials: custodial, passkeys and device keys (docs/approver-keys.md). */
    credentials: (member: string) => ['identity', 'credentials', member] as const,
  },
  /** Webhook subscriptions and each one's delivery attempts: a new, rotated or removed one refreshes all (by the prefix). */
  webhooks: {
    all: ['webhooks'] as const,
    list: () => ['webhooks', 'list'] as const,
    deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
  },
  me: (key: string) => ['me', key] as const,
  /** The issuers the sign-in page offers (GET /v1/identity/issuers): public, asked before anyone signs in. */
  identityIssuers: () => ['identity-issuers'] as const,
  /** A member's public signing key, which verifies the decisions they signed. */
  memberKey: (id: string) => ['members', 'public-key', id] as const,
  /** A decision's receipt as checked in the browser, by request and signature. */
  receipt: (approvalId: string, signature: string) => ['receipts', approvalId, signature] as const,
  health: () => ['health'] as const,
  gateways: () => ['gateways'] as const,
  /** Where the node's analyses stand (GET /v1/review/queue): polled only while one is awaited. */
  reviewJobs: () => ['review-jobs'] as const,
  trial: (document: string) => ['trials', document] as const,
};
