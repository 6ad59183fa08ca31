// The identity configuration `tollgate serve --identity FILE` reads (docs/security.md, "Signing in through an
// identity provider"): this Tollgate's public base URL and the OpenID Connect issuers whose tokens it accepts.
// Read with the engine's exact reader and checked with zod; every fault is a Diagnostic naming its JSON Pointer.
import { type Diagnostic, formatPointer, readJsonText } from '@tollgate/engine/source';
import { z } from 'zod';
import { ROLES, type Role } from '../state/members/model.ts';

/** An identity file is small; a larger one is refused unread. */
export const MAX_IDENTITY_BYTES = 256 * 1024;

/** An absolute http(s) URL with no query or fragment, as an issuer or a resource is named (RFC 8414, RFC 9728). */
const httpUrl = z.string().refine((text) => {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.search === '' && url.hash === '' && url.username === '';
  } catch {
    return false;
  }
}, 'an absolute http(s) URL without query, fragment or credentials');

const claimName = z.string().min(1).max(200);

const IssuerSchema = z.strictObject({
  issuer: httpUrl,
  audience: z.string().min(1).optional(),
  member_claim: claimName,
  agent_claim: claimName.optional(),
  roles: z
    .strictObject({
      claim: claimName,
      map: z.record(z.string().min(1), z.enum(ROLES)),
    })
    .optional(),
  console: z
    .strictObject({
      client_id: z.string().min(1),
      scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'a scope token (RFC 6749, 3.3)')).min(1),
    })
    .optional(),
});

const IdentitySchema = z
  .strictObject({
    resource: httpUrl,
    issuers: z.array(IssuerSchema).min(1),
  })
  .superRefine((config, check) => {
    const seen = new Set<string>();
    config.issuers.forEach((issuer, index) => {
      if (seen.has(issuer.issuer))
        check.addIssue({ code: 'custom', path: ['issuers', index, 'issuer'], message: 'this issuer is named twice' });
      seen.add(issuer.issuer);
    });
  });

/** One configured issuer, with its audience settled. */
export interface IssuerConfig {
  /** The exact `iss` its tokens carry; discovery is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /** The `aud` values accepted: the issuer's own `audience`, else the resource and its /mcp URL. */
  audiences: string[];
  memberClaim: string;
  agentClaim?: string;
  roles?: { claim: string; map: Readonly<Record<string, Role>> };
  console?: { clientId: string; scopes: string[] };
}

/** The identity configuration, read and settled. */
export interface IdentityConfig {
  /** This Tollgate's public base URL, without a trailing slash. */
  resource: string;
  /** The protected resource /mcp is: the resource's /mcp URL (RFC 9728's `resource`). */
  mcpResource: string;
  issuers: IssuerConfig[];
}

export type IdentityRead = { ok: true; config: IdentityConfig } | { ok: false; problems: Diagnostic[] };

const problem = (path: string, message: string): Diagnostic => ({ code: 'INVALID_IDENTITY', severity: 'error', message, path });

/**
 * Reads an identity file's text: the configuration, or every fault with its JSON Pointer.
 *
 * @example
 * readIdentityConfig('{"resource": "https://tg.example.com", "issuers": []}')
 * // { ok: false, problems: [{ code: 'INVALID_IDENTITY', path: '/issuers', ... }] }
 */
export function readIdentityConfig(text: string): IdentityRead {
  const read = readJsonText(text, { maxLength: MAX_IDENTITY_BYTES, maxDepth: 16 });
  if (!read.ok) return { ok: false, problems: [read.diagnostic] };
  // A member named twice is refused, never resolved by whichever copy a reader keeps.
  if (read.diagnostics.length > 0) return { ok: false, problems: read.diagnostics };
  const parsed = IdentitySchema.safeParse(read.value);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => problem(formatPointer(issue.path as (string | number)[]), issue.message)),
    };
  }
  return { ok: true, config: settle(parsed.data) };
}

function settle(data: z.infer<typeof IdentitySchema>): IdentityConfig {
  const resource = data.resource.replace(/\/+$/, '');
  const mcpResource = `${resource}/mcp`;
  return {
    resource,
    mcpResource,
    issuers: data.issuers.map((i) => ({
      issuer: i.issuer,
      // A token asked for the MCP resource (RFC 8707, as MCP clients ask) names /mcp; one for the API names the base.
      audiences: i.audience !== undefined ? [i.audience] : [resource, mcpResource],
      memberClaim: i.member_claim,
      ...(i.agent_claim !== undefined ? { agentClaim: i.agent_claim } : {}),
      ...(i.roles !== undefined ? { roles: { claim: i.roles.claim, map: i.roles.map } } : {}),
      ...(i.console !== undefined ? { console: { clientId: i.console.client_id, scopes: i.console.scopes } } : {}),
    })),
  };
}
