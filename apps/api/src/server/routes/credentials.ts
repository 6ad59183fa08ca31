// Routes: the keys members hold (docs/approver-keys.md, "Credentials"). Anyone with a key reads a member's public
// credentials (custodial first), as they read the custodial public key, so anyone can verify what was signed; a
// person enrolls passkeys and device keys of their own and revokes theirs, and an owner or admin revokes anyone's.
// Each enrollment and revocation is recorded among the changes to members and keys.
import { createHash, createPublicKey, randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { enrolledPasskey, registrationOptions } from '../approvals/passkeys.ts';
import { publicKeyOf } from '../approvals/proof.ts';
import { relyingParty } from '../approvals/relying-party-of-request.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import type { CredentialRow } from '../state/members/credential-model.ts';
import type { MemberRow } from '../state/members/model.ts';
import { made } from './member-changes.ts';
import { nameParam } from './path-params.ts';
import { errorResponse, exactJson, jsonBody, jsonResponse, memberOf, members, notFound, people } from './route-kit.ts';

const DateTime = z.iso.datetime({ offset: true });

export const Credential = z
  .object({
    id: z.string().openapi({ description: "A passkey's credential id (base64url), a device key's id, or `custodial`." }),
    member: z.string(),
    kind: z.enum(['custodial', 'passkey', 'device']),
    label: z.string().nullable(),
    algorithm: z.enum(['Ed25519', 'ES256', 'EdDSA', 'RS256']),
    public_key: z.string().openapi({ description: 'SPKI PEM: verifies what the credential signed.' }),
    fingerprint: z.string(),
    rp_id: z.string().nullable().openapi({ description: "A passkey's relying party id; null otherwise." }),
    created_at: DateTime,
    revoked_at: DateTime.nullable(),
  })
  .openapi('MemberCredential');
type Credential = z.infer<typeof Credential>;

/** The longest credential id taken: 384 bytes as base64url, more than authenticators in use give. */
const MAX_CREDENTIAL_ID_LENGTH = 512;

const MemberParam = nameParam({ name: 'id', description: 'The member id', example: '6f1c2d3e-0000-4000-8000-000000000000' });
const CredentialParam = nameParam(
  { name: 'credential', description: 'The credential id', example: 'device-3q2-7wAAAAAAAAAAAAAAAA' },
  MAX_CREDENTIAL_ID_LENGTH,
);
const Label = z.string().trim().min(1).max(100).optional().openapi({ description: 'A name the member knows it by, e.g. "work laptop".' });

const PasskeyRegistration = z
  .object({
    id: z.string().min(1).max(MAX_CREDENTIAL_ID_LENGTH),
    rawId: z.string().min(1).max(MAX_CREDENTIAL_ID_LENGTH),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: z.string().min(1).max(16_384),
      attestationObject: z.string().min(1).max(65_536),
      transports: z.array(z.string().max(32)).max(16).optional(),
      authenticatorData: z.string().max(65_536).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: z.string().max(16_384).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()),
  })
  .openapi('PasskeyRegistration', { description: 'What startRegistration of @simplewebauthn/browser answers.' });

const errors = {
  400: errorResponse('A bad body, or a registration that does not verify (ENROLLMENT_INVALID)'),
  403: errorResponse("An agent's or a model's key, or another member's credential"),
  404: errorResponse('No such member or credential'),
  409: errorResponse('Enrolled already, or too many credentials'),
};

const listRoute = createRoute({
  method: 'get',
  path: '/members/{id}/credentials',
  operationId: 'listMemberCredentials',
  tags: ['members'],
  summary: "A member's credentials: the custodial key, passkeys and device keys, revoked ones included",
  request: { params: z.object({ id: MemberParam }) },
  responses: { 200: jsonResponse(z.object({ credentials: z.array(Credential) }), 'The credentials, custodial first'), 404: errors[404] },
});

const personOnly = people("a model's key cannot enroll or revoke a person's signing keys");

const passkeyOptionsRoute = createRoute({
  method: 'post',
  path: '/me/credentials/passkey/options',
  operationId: 'passkeyEnrollmentOptions',
  tags: ['members'],
  summary: 'WebAuthn creation options to enroll a passkey of your own',
  middleware: [members(), personOnly] as const,
  responses: {
    200: jsonResponse(z.object({ options: z.record(z.string(), z.unknown()), issued_at: DateTime }), 'Options for startRegistration'),
    403: errors[403],
  },
});

const enrollPasskeyRoute = createRoute({
  method: 'post',
  path: '/me/credentials/passkey',
  operationId: 'enrollPasskey',
  tags: ['members'],
  summary: 'Enroll a passkey of your own',
  middleware: [members(), personOnly] as const,
  request: { body: jsonBody(z.strictObject({ response: PasskeyRegistration, issued_at: DateTime, label: Label })) },
  responses: { 201: jsonResponse(Credential, 'The passkey, enrolled'), ...errors },
});

const enrollDeviceRoute = createRoute({
  method: 'post',
  path: '/me/credentials/device',
  operationId: 'enrollDeviceKey',
  tags: ['members'],
  summary: 'Enroll a device key of your own (its public half, an Ed25519 SPKI PEM)',
  middleware: [members(), personOnly] as const,
  request: { body: jsonBody(z.strictObject({ public_key: z.string().min(1).max(4096), label: Label })) },
  responses: { 201: jsonResponse(Credential, 'The device key, enrolled'), ...errors },
});

const revokeRoute = createRoute({
  method: 'post',
  path: '/members/{id}/credentials/{credential}/revoke',
  operationId: 'revokeMemberCredential',
  tags: ['members'],
  summary: 'Revoke a passkey or device key (your own, or as an owner or admin anyone’s)',
  middleware: [members(), personOnly] as const,
  request: { params: z.object({ id: MemberParam, credential: CredentialParam }) },
  responses: { 200: jsonResponse(Credential, 'The credential, revoked'), 403: errors[403], 404: errors[404] },
});

/**
 * The fingerprint a person compares keys by: `SHA256:` and the unpadded base64 of the SHA-256 of the SPKI
 * DER (the console computes the same from the key it verifies with; docs/console.md, "Approvals inbox").
 */
export function keyFingerprint(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}

/** A credential as the API shows it. */
export function credentialOf(row: CredentialRow): Credential {
  return {
    id: row.id,
    member: row.member_id,
    kind: row.kind,
    label: row.label,
    algorithm: row.algorithm,
    public_key: row.public_key,
    fingerprint: keyFingerprint(row.public_key),
    rp_id: row.rp_id,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** A member's custodial identity as a credential: the server-held Ed25519 key every member has. */
export function custodialCredentialOf(member: MemberRow): Credential {
  return {
    id: 'custodial',
    member: member.id,
    kind: 'custodial',
    label: null,
    algorithm: 'Ed25519',
    public_key: member.public_key,
    fingerprint: keyFingerprint(member.public_key),
    rp_id: null,
    created_at: member.created_at,
    revoked_at: null,
  };
}

/** Every credential of a member, custodial first. */
export async function credentialsOfMember(ctx: AppContext, member: MemberRow): Promise<Credential[]> {
  return [custodialCredentialOf(member), ...(await ctx.state.identity.listCredentials(member.id)).map(credentialOf)];
}

/** A device key's id: from its key, so one key is enrolled once. */
function deviceIdOf(spkiPem: string): string {
  const der = publicKeyOf(spkiPem)?.export({ type: 'spki', format: 'der' });
  return der ? `device-${createHash('sha256').update(der).digest('base64url').slice(0, 22)}` : `device-${randomUUID()}`;
}

export function credentialRoutes(options: { rpId?: string | undefined } = {}) {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const member = await ctx.state.findMember(id);
    if (!member || member.id !== id) throw notFound('member', `no member ${id}`);
    return exactJson(c, { credentials: await credentialsOfMember(ctx, member) }, 200);
  });

  app.openapi(passkeyOptionsRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = memberOf(c);
    const issuedAt = ctx.now().toISOString();
    const held = await ctx.state.identity.listCredentials(member.id);
    const passkeyOptions = await registrationOptions(member, held, relyingParty(c, options.rpId), issuedAt);
    return exactJson(c, { options: passkeyOptions as unknown as Record<string, unknown>, issued_at: issuedAt }, 200);
  });

  app.openapi(enrollPasskeyRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = memberOf(c);
    const { response, issued_at, label } = c.req.valid('json');
    const now = ctx.now();
    const rp = relyingParty(c, options.rpId);
    const checked = await enrolledPasskey(member, response as RegistrationResponseJSON, issued_at, rp, label ?? null, now);
    if (!checked.ok) throw new ApiError('ENROLLMENT_INVALID', checked.message);
    const row = made(await ctx.state.identity.enrollCredential(member.id, checked.row, { kind: 'member', member }, now), 'member');
    return exactJson(c, credentialOf(row), 201);
  });

  app.openapi(enrollDeviceRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = memberOf(c);
    const { public_key, label } = c.req.valid('json');
    // Only a public key's PEM: createPublicKey would also read a private key (and derive its public half).
    const key = public_key.trimStart().startsWith('-----BEGIN PUBLIC KEY-----') ? publicKeyOf(public_key) : undefined;
    if (key?.asymmetricKeyType !== 'ed25519') {
      throw new ApiError('INVALID_BODY', 'public_key is not an Ed25519 public key in SPKI PEM', {
        issues: [{ path: '/public_key', code: 'not_ed25519_spki', message: 'an Ed25519 public key, -----BEGIN PUBLIC KEY-----' }],
      });
    }
    const pem = key.export({ type: 'spki', format: 'pem' }).toString();
    const now = ctx.now();
    const row: CredentialRow = {
      id: deviceIdOf(pem),
      member_id: member.id,
      kind: 'device',
      label: label ?? null,
      algorithm: 'Ed25519',
      public_key: pem,
      cose_key: null,
      rp_id: null,
      counter: 0,
      created_at: now.toISOString(),
      revoked_at: null,
    };
    const made_ = made(await ctx.state.identity.enrollCredential(member.id, row, { kind: 'member', member }, now), 'member');
    return exactJson(c, credentialOf(made_), 201);
  });

  app.openapi(revokeRoute, async (c) => {
    const ctx = c.get('ctx');
    const actor = memberOf(c);
    const { id, credential } = c.req.valid('param');
    const row = made(await ctx.state.identity.revokeCredential(id, credential, { kind: 'member', member: actor }, ctx.now()), 'credential');
    return exactJson(c, credentialOf(row), 200);
  });
  return app;
}
