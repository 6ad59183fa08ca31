// /v1/openapi.json: the document zod-openapi generates from the routes, finished here where the rule is the
// same for every operation (docs/api.md, "The OpenAPI document"): the bearer scheme on every operation that
// needs a key, the public operations (health, this document, its reference page), an operationId and a tag
// on every operation, and the answers every operation can give (401 without a key, 413 and 415 with a
// body) in the one Error shape. An operation without an operationId is a startup error, never a silent gap.

/** The parts of an OpenAPI 3.1 document this module reads and writes. */
interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; schema?: Record<string, unknown> }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: { name: string; description: string }[];
  security?: unknown;
  [key: string]: unknown;
}

/**
 * The operationIds and tags of routes whose modules do not state them, keyed by `METHOD path` (paths as
 * the document writes them, relative to /v1). Route modules may state their own in createRoute.
 */
export const OPERATIONS: Record<string, { operationId: string; tag: string }> = {
  'GET /documents': { operationId: 'listDocuments', tag: 'documents' },
  'POST /webhooks': { operationId: 'createWebhook', tag: 'webhooks' },
  'GET /webhooks': { operationId: 'listWebhooks', tag: 'webhooks' },
  'GET /webhooks/{id}': { operationId: 'getWebhook', tag: 'webhooks' },
  'DELETE /webhooks/{id}': { operationId: 'deleteWebhook', tag: 'webhooks' },
  'POST /webhooks/{id}/rotate-secret': { operationId: 'rotateWebhookSecret', tag: 'webhooks' },
  'GET /webhooks/{id}/deliveries': { operationId: 'listWebhookDeliveries', tag: 'webhooks' },
  'POST /webhooks/{id}/deliveries/{delivery}/redeliver': { operationId: 'redeliverWebhook', tag: 'webhooks' },
  'GET /documents/{id}': { operationId: 'getDocument', tag: 'documents' },
  'GET /documents/{id}/history': { operationId: 'getDocumentHistory', tag: 'documents' },
  'GET /documents/{id}/versions/{sequence}': { operationId: 'getDocumentVersion', tag: 'documents' },
  'POST /documents/{id}/edits': { operationId: 'editDocument', tag: 'documents' },
  'POST /documents/{id}/activate': { operationId: 'activateDocument', tag: 'documents' },
  'POST /documents/{id}/revert': { operationId: 'revertDocument', tag: 'documents' },
  'GET /documents/{id}/diff': { operationId: 'diffDocumentVersions', tag: 'documents' },
  'POST /documents/{id}/status': { operationId: 'setDocumentStatus', tag: 'rulesets' },
  'GET /approvals': { operationId: 'listApprovals', tag: 'approvals' },
  'GET /approvals/{id}': { operationId: 'getApproval', tag: 'approvals' },
  'POST /approvals/{id}/approve': { operationId: 'approveApproval', tag: 'approvals' },
  'POST /approvals/{id}/challenge': { operationId: 'approvalChallenge', tag: 'approvals' },
  'POST /approvals/{id}/deny': { operationId: 'denyApproval', tag: 'approvals' },
  'POST /approvals/{id}/claim': { operationId: 'claimApproval', tag: 'approvals' },
  'GET /decisions': { operationId: 'listDecisions', tag: 'decisions' },
  'GET /decisions/{call_id}': { operationId: 'getDecision', tag: 'decisions' },
  'GET /decisions/{call_id}/receipt': { operationId: 'getDecisionReceipt', tag: 'decisions' },
  'GET /rulesets': { operationId: 'listRulesets', tag: 'rulesets' },
  'POST /rulesets': { operationId: 'createRuleset', tag: 'rulesets' },
  'GET /rulesets/{id}': { operationId: 'getRuleset', tag: 'rulesets' },
  'PATCH /rulesets/{id}': { operationId: 'updateRuleset', tag: 'rulesets' },
  'POST /rulesets/{id}/update-to-latest': { operationId: 'updateRulesetPinsToLatest', tag: 'rulesets' },
  'POST /rulesets/{id}/archive': { operationId: 'archiveRuleset', tag: 'rulesets' },
  'POST /rulesets/{id}/restore': { operationId: 'restoreRuleset', tag: 'rulesets' },
  'POST /rulesets/{id}/validate': { operationId: 'validateRuleset', tag: 'rulesets' },
  'GET /agents/{agent}/decision-map': { operationId: 'getAgentDecisionMap', tag: 'review' },
  'GET /documents/{id}/decision-map': { operationId: 'getPolicyDecisionMap', tag: 'review' },
  'GET /documents/{id}/impact-preview': { operationId: 'getImpactPreview', tag: 'review' },
  'GET /review/queue': { operationId: 'getReviewQueue', tag: 'review' },
};

/** The tags, in the reference page's order, each with what its operations are about. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'meta', description: 'Health, this description, its reference page and the identity issuers; no key needed.' },
  { name: 'gate', description: "An agent's calls, decided by its running documents." },
  { name: 'documents', description: 'The stored documents: versions, edits, activation, diffs.' },
  { name: 'rulesets', description: 'Rule sets: pinned rules, their lifecycle and validation runs.' },
  { name: 'catalogues', description: "A catalogue's tools and their authorization." },
  { name: 'mcp', description: "The MCP gateway's upstream servers, their tools and the definitions pinned." },
  { name: 'approvals', description: 'Approval requests for held calls.' },
  { name: 'decisions', description: 'The recorded gate decisions.' },
  { name: 'policies', description: 'Stateless policy validation, evaluation and templates.' },
  { name: 'rules', description: 'Stateless compiling and checking of rule sheets and Colang.' },
  { name: 'review', description: 'Decision maps of policy versions and the impact preview of a candidate.' },
  { name: 'simulations', description: 'Simulations of calls, trials of candidate policies and shadows of candidate rule files.' },
  { name: 'members', description: 'Members and the key in use.' },
  { name: 'gateways', description: 'The gateway nodes deciding calls over the data folder and the language revision each decides.' },
  { name: 'events', description: 'The live event stream.' },
  { name: 'webhooks', description: 'Signed webhooks of approval events: subscriptions and their deliveries.' },
];

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

/** The answers of the operations every key may not need: health, the document and its page. */
function publicPaths(): Record<string, Record<string, Operation>> {
  const meta = (operationId: string, summary: string, responses: Record<string, unknown>): Record<string, Operation> => ({
    get: { operationId, summary, tags: ['meta'], security: [], responses },
  });
  const problem = {
    type: 'object',
    properties: { id: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
    required: ['id', 'code', 'message'],
  };
  const check = {
    type: 'object',
    properties: {
      name: { type: 'string', enum: ['draining', 'database', 'migrations', 'decision_log', 'document_store', 'node_registered'] },
      ok: { type: 'boolean' },
    },
    required: ['name', 'ok'],
  };
  const readiness = (description: string) => ({
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { status: { type: 'string', enum: ['ready', 'unready'] }, checks: { type: 'array', items: check } },
          required: ['status', 'checks'],
        },
      },
    },
  });
  return {
    '/health': meta('getHealth', 'Whether the server and its store are well; degraded names each damaged file.', {
      '200': {
        description: 'ok, or degraded with the damaged files.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { status: { type: 'string', enum: ['ok', 'degraded'] }, problems: { type: 'array', items: problem } },
              required: ['status'],
            },
          },
        },
      },
      '400': errorAnswer('INVALID_QUERY: health takes no query parameters.'),
    }),
    '/health/live': meta('getLiveness', 'Whether the process answers (liveness).', {
      '200': {
        description: 'ok.',
        content: {
          'application/json': {
            schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] } }, required: ['status'] },
          },
        },
      },
      '400': errorAnswer('INVALID_QUERY: liveness takes no query parameters.'),
    }),
    '/health/ready': meta('getReadiness', 'Whether this node can decide calls now (readiness), naming each check and whether it passes.', {
      '200': readiness('ready: every check passes.'),
      '503': readiness('unready: at least one check fails (draining while the node stops).'),
      '400': errorAnswer('INVALID_QUERY: readiness takes no query parameters.'),
    }),
    '/openapi.json': meta('getOpenApiDocument', 'This description (OpenAPI 3.1).', {
      '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } },
      '400': errorAnswer('INVALID_QUERY: the document takes no query parameters.'),
    }),
    '/identity/issuers': meta('listIdentityIssuers', 'The OpenID Connect issuers the console may sign in with (docs/security.md).', {
      '200': {
        description: 'The issuers with a console client; none without an identity configuration.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                issuers: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      issuer: { type: 'string' },
                      client_id: { type: 'string' },
                      scopes: { type: 'array', items: { type: 'string' } },
                    },
                    required: ['issuer', 'client_id', 'scopes'],
                  },
                },
              },
              required: ['issuers'],
            },
          },
        },
      },
      '400': errorAnswer('INVALID_QUERY: the list takes no query parameters.'),
    }),
    '/reference': meta('getApiReference', 'An HTML reference page over this description.', {
      '200': { description: 'The reference page.', content: { 'text/html': { schema: { type: 'string' } } } },
      '400': errorAnswer('INVALID_QUERY: the page takes no query parameters.'),
    }),
  };
}

/** A path parameter of whole numbers written as a string pattern (`^[1-9][0-9]*$`) is an integer on the wire. */
function integerPathParameters(op: Operation): void {
  for (const p of op.parameters ?? []) {
    const s = p.schema;
    if (p.in !== 'path' || !s || s.type !== 'string' || typeof s.pattern !== 'string') continue;
    if (!/^\^\[[01]-9\]\[0-9\]/.test(s.pattern)) continue;
    s.type = 'integer';
    s.minimum = s.pattern.startsWith('^[1-9]') ? 1 : 0;
    if (typeof s.example === 'string') s.example = Number(s.example);
  }
}

/**
 * Finishes the generated document (in place, and returns it).
 *
 * @example
 * const doc = finishDocument(api.getOpenAPI31Document({ openapi: '3.1.0', info, servers: [{ url: '/v1' }] }));
 */
export function finishDocument(doc: OpenApiDocument): OpenApiDocument {
  doc.components ??= {};
  doc.components.securitySchemes = {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: "A member's or an agent's key, or a token of a configured OpenID Connect issuer: Authorization: Bearer <key or token>.",
    },
  };
  const missing: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      const named = OPERATIONS[key];
      op.operationId ??= named?.operationId;
      if (!op.tags || op.tags.length === 0) op.tags = named ? [named.tag] : [];
      if (!op.operationId || op.tags.length === 0) missing.push(key);
      op.security = [{ bearer: [] }];
      // Every operation refuses a query parameter it does not declare (openapi.ts), so every one can answer 400.
      op.responses['400'] ??= errorAnswer('INVALID_QUERY, INVALID_ID or INVALID_BODY: the request is not of the described shape.');
      op.responses['401'] ??= errorAnswer(
        'MISSING_KEY or INVALID_KEY: no key, or a key that is not known; with issuers configured, a token refused (TOKEN_INVALID, TOKEN_EXPIRED, TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_IDENTITY). WWW-Authenticate: Bearer, naming the protected resource metadata when issuers are configured.',
      );
      if (op.requestBody !== undefined) {
        op.responses['413'] ??= errorAnswer('TOO_LARGE: the body is over the limit; nothing was read.');
        op.responses['415'] ??= errorAnswer('UNSUPPORTED_MEDIA_TYPE: the body is not application/json.');
      }
      integerPathParameters(op);
    }
  }
  if (missing.length > 0)
    throw new Error(`operations without an operationId or tag (add them to OPERATIONS in openapi-document.ts): ${missing.join(', ')}`);
  doc.paths = { ...publicPaths(), ...doc.paths };
  doc.tags = TAGS;
  return doc;
}
