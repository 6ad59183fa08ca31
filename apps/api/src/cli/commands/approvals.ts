// tollgate approvals key create | approve | deny: a member's device key from the terminal, against a running
// server (docs/approver-keys.md, "From a terminal"). The private key never leaves the machine: the server
// gets its public half once, and then only signatures.
import { newDeviceKey, prepareKeyFile, readDeviceKey, samePublicKey, signContent } from '../device-key-file.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { jsonOut } from '../json-out.ts';
import { one, type ParsedOptions, required } from '../options.ts';
import { apiKeyOf, type ServerClient, serverClient, serverUrlOf } from '../server-client.ts';

/** A credential as GET /v1/members/{id}/credentials lists it (docs/approver-keys.md, "Credentials"). */
interface Credential {
  id: string;
  kind: 'custodial' | 'passkey' | 'device';
  label: string | null;
  public_key: string;
  fingerprint: string;
  revoked_at: string | null;
}

/** What a decision answers: the request, decided (routes/approvals.ts). */
interface DecidedApproval {
  id: string;
  agent: string;
  tool: string;
  status: string;
  decided_by_name?: string | null;
}

function clientOf(options: ParsedOptions): ServerClient {
  const url = serverUrlOf(options);
  return serverClient(url, apiKeyOf());
}

/** `approvals key create --out FILE [--label TEXT] [--force]`: a new key file, its public half enrolled. */
export async function approvalsKeyCreate(options: ParsedOptions, io: CliIo): Promise<number> {
  const file = required(options.out, 'out');
  const client = clientOf(options);
  const key = newDeviceKey();
  // Written first beside FILE, so a folder that cannot take it fails before the server trusts the key.
  const pending = prepareKeyFile(file, key.privateKeyPem, options.force === true);
  let credential: Credential;
  try {
    credential = await client.post<Credential>('/v1/me/credentials/device', {
      public_key: key.publicKeyPem,
      ...(options.label === undefined ? {} : { label: options.label }),
    });
  } catch (err) {
    pending.discard();
    throw err;
  }
  pending.install();
  if (options.json) io.stdout.write(jsonOut(credential));
  else {
    io.stdout.write(
      `enrolled device key ${credential.id} (${credential.fingerprint})${credential.label ? ` "${credential.label}"` : ''}\n`,
    );
    io.stdout.write(`wrote its private key to ${file} (mode 0600); approve with: tollgate approvals approve ID --key ${file}\n`);
  }
  return EXIT_OK;
}

/** `approvals approve|deny ID --key FILE [--reason TEXT]`: signs the decision's content with the key file. */
export async function approvalsDecide(verb: 'approve' | 'deny', rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const id = one(rest, 'ID');
  const keyFile = required(options.key, 'key');
  const client = clientOf(options);
  const key = readDeviceKey(keyFile);
  const credential = await credentialOf(client, key.publicKeyPem, keyFile);
  const decision = verb === 'approve' ? 'approved' : 'denied';
  const path = `/v1/approvals/${encodeURIComponent(id)}`;
  const { content } = await client.post<{ content: string }>(`${path}/challenge`, { decision });
  const decided = await client.post<DecidedApproval>(`${path}/${verb}`, {
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    signed_content: content,
    proof: { kind: 'device', credential_id: credential.id, signature: signContent(key, content) },
  });
  if (options.json) io.stdout.write(jsonOut(decided));
  else {
    io.stdout.write(
      `${decided.status} ${decided.id}: ${decided.tool} by ${decided.agent}, signed with device key ${credential.id} (${credential.fingerprint})\n`,
    );
  }
  return EXIT_OK;
}

/**
 * The caller's device credential whose public key is the key file's: an active one, else a revoked one, which
 * is still sent so the server says why it refuses it (CREDENTIAL_REVOKED). None is KEY_NOT_ENROLLED.
 */
async function credentialOf(client: ServerClient, publicKeyPem: string, keyFile: string): Promise<Credential> {
  const me = await client.get<{ id: string; name: string }>('/v1/me');
  const { credentials } = await client.get<{ credentials: Credential[] }>(`/v1/members/${encodeURIComponent(me.id)}/credentials`);
  const matching = credentials.filter((c) => c.kind === 'device' && samePublicKey(c.public_key, publicKeyPem));
  const found = matching.find((c) => c.revoked_at === null) ?? matching[0];
  if (found === undefined) {
    throw new CliError(
      'KEY_NOT_ENROLLED',
      `${keyFile}: KEY_NOT_ENROLLED: this key is not a device key of ${me.name} on ${client.url.origin}; ` +
        'make and enroll one with: tollgate approvals key create --out FILE',
      EXIT_INVALID,
    );
  }
  return found;
}
