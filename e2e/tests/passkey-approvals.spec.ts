// Journey: an admin enrolls a passkey in the console (Chromium's virtual authenticator, through the DevTools
// protocol) and decides held calls with it (docs/approver-keys.md). The approval reads back with a passkey proof;
// a replayed assertion, a tampered one and one made with a passkey revoked since are each refused with their code
// and leave the call held; the approved call's receipt verifies offline with `tollgate audit verify-receipt`.
// WebAuthn refuses IP addresses, so the console is opened at localhost on the config's port. The passkey is
// revoked and every call this journey held is denied after it, so later journeys decide with custodial keys.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { agentKey, demoKeys } from './demo.ts';
import { openHeld } from './inbox.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const owner = () => demoKeys().members.find((m) => m.role === 'owner');
const admin = () => {
  const found = demoKeys().members.find((m) => m.role === 'admin');
  if (!found) throw new Error('the demo has no admin');
  return found;
};
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const asOwner = () => auth(owner()?.key ?? '');

interface Held {
  id: string;
  callId: string;
}

/** The requests this journey held. */
const ours: string[] = [];

test.afterEach(async ({ request }) => {
  for (const id of ours.splice(0)) {
    const read = await request.get(`/v1/approvals/${id}`, { headers: asOwner() });
    if (((await read.json()) as { status: string }).status !== 'pending') continue;
    await request.post(`/v1/approvals/${id}/deny`, { headers: asOwner(), data: { reason: 'the passkey journey ended' } });
  }
  // A passkey left active would have later journeys' consoles ask an authenticator they do not have.
  const { id, key } = admin();
  const listed = await request.get(`/v1/members/${id}/credentials`, { headers: auth(key) });
  const { credentials } = (await listed.json()) as { credentials: { id: string; kind: string; revoked_at: string | null }[] };
  for (const credential of credentials.filter((c) => c.kind !== 'custodial' && c.revoked_at === null)) {
    await request.post(`/v1/members/${id}/credentials/${encodeURIComponent(credential.id)}/revoke`, { headers: auth(key) });
  }
});

async function hold(request: APIRequestContext, amount: string): Promise<Held> {
  const call = await request.post('/v1/agents/support-bot/calls', {
    headers: auth(agentKey()),
    data: { tool: 'issue_refund', arguments: { amount } },
  });
  expect(call.status(), await call.text()).toBe(200);
  const held = (await call.json()) as { call_id: string; decision: string; approval: { id: string } };
  expect(held.decision).toBe('require_approval');
  ours.push(held.approval.id);
  return { id: held.approval.id, callId: held.call_id };
}

async function approvalOf(request: APIRequestContext, id: string): Promise<{ status: string; proof: { kind: string } | null }> {
  const read = await request.get(`/v1/approvals/${id}`, { headers: asOwner() });
  expect(read.status()).toBe(200);
  return (await read.json()) as { status: string; proof: { kind: string } | null };
}

/**
 * A virtual authenticator that verifies the user at once, as a platform passkey with a fingerprint would; what it
 * answers sets whether it verifies the user from then on (refusing is how a person dismisses the prompt).
 */
async function addAuthenticator(page: Page): Promise<(verifies: boolean) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async (verifies) => {
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: verifies });
  };
}

/** Presses `verb` on the card of `held`, letting the decision through or not, and answers the body it carried. */
async function decideCapturing(page: Page, held: Held, verb: 'Approve' | 'Deny', pass: boolean): Promise<Record<string, unknown>> {
  const path = `**/v1/approvals/${held.id}/${verb === 'Approve' ? 'approve' : 'deny'}`;
  let body: Record<string, unknown> | undefined;
  await page.route(path, async (route) => {
    body = route.request().postDataJSON() as Record<string, unknown>;
    if (pass) await route.continue();
    else await route.abort();
  });
  const card = await openHeld(page, held.callId);
  await card.getByRole('button', { name: verb }).click();
  await expect.poll(() => body !== undefined).toBe(true);
  await page.unroute(path);
  return body as Record<string, unknown>;
}

test('a passkey enrolled in the console signs approvals and denials; replayed, tampered and revoked proofs are refused', async ({
  page,
  request,
  baseURL,
}) => {
  const consoleUrl = new URL(baseURL ?? '');
  consoleUrl.hostname = 'localhost';
  const origin = consoleUrl.origin;
  const me = admin();
  /** Sends `body` to a decision route as the console would, from the console's origin. */
  const send = (held: Held, body: unknown) =>
    page.request.post(`${origin}/v1/approvals/${held.id}/approve`, { headers: { ...auth(me.key), origin }, data: body });

  const userVerifies = await addAuthenticator(page);
  await page.goto(`${origin}/#/members`);
  await page.getByLabel('Member key').fill(me.key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // Enroll: the table lists the custodial key, then the passkey.
  const keys = page.getByRole('table', { name: 'Your signing keys, custodial first' });
  await expect(keys.getByRole('row', { name: /Custodial/ })).toBeVisible();
  await page.getByLabel('Passkey label (optional)').fill('journey laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const passkeyRow = keys.getByRole('row').filter({ hasText: 'journey laptop' });
  await expect(passkeyRow).toContainText('Passkey');
  await expect(passkeyRow).toContainText('Active');
  await expect(passkeyRow).toContainText(/SHA256:/);

  // Approve with the passkey; the API keeps its proof.
  const approved = await hold(request, '610');
  await page.goto(`${origin}/#/approvals`);
  await expect(page.getByText('Live')).toBeVisible();
  const sent = await decideCapturing(page, approved, 'Approve', true);
  expect(sent.proof).toMatchObject({ kind: 'passkey' });
  // The receipt verifies in the browser with the passkey's public key, named by its fingerprint.
  const listed = await request.get(`/v1/members/${me.id}/credentials`, { headers: auth(me.key) });
  const { credentials } = (await listed.json()) as { credentials: { kind: string; label: string | null; fingerprint: string }[] };
  const fingerprint = credentials.find((c) => c.kind === 'passkey' && c.label === 'journey laptop')?.fingerprint;
  const receipt = page.getByRole('status', { name: 'Decision receipt' });
  await expect(receipt).toContainText(approved.callId);
  await expect(receipt).toContainText(`Signature verified — signed by ${me.name} with passkey ${fingerprint}`);
  await expect.poll(async () => (await approvalOf(request, approved.id)).status).toBe('approved');
  expect((await approvalOf(request, approved.id)).proof?.kind).toBe('passkey');

  // The same assertion again: refused as a replay.
  const replayed = await send(approved, sent);
  expect(replayed.status(), await replayed.text()).toBe(409);
  expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe('PROOF_REPLAYED');

  // Deny with the passkey.
  const denied = await hold(request, '620');
  const denial = await decideCapturing(page, denied, 'Deny', true);
  expect(denial.proof).toMatchObject({ kind: 'passkey' });
  await expect.poll(async () => (await approvalOf(request, denied.id)).status).toBe('denied');
  expect((await approvalOf(request, denied.id)).proof?.kind).toBe('passkey');

  // An approval signed but never delivered: tampered, it is refused; then the passkey is revoked in the console,
  // and the untouched proof is refused too. The call stays held throughout.
  const kept = await hold(request, '630');
  // The person does not go through with the prompt: nothing is sent, the card says so, the call stays held.
  const card = await openHeld(page, kept.callId);
  await userVerifies(false);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('alert')).toContainText('The passkey prompt was cancelled');
  expect((await approvalOf(request, kept.id)).status).toBe('pending');
  await userVerifies(true);

  const unsent = await decideCapturing(page, kept, 'Approve', false);
  await expect(card.getByRole('alert')).toContainText('NETWORK');

  const content = String(unsent.signed_content);
  const otherContent = await send(kept, { ...unsent, signed_content: content.replace('"approved"', '"denied"') });
  expect(otherContent.status(), await otherContent.text()).toBe(403);
  expect(((await otherContent.json()) as { error: { code: string } }).error.code).toBe('PROOF_CONTENT_MISMATCH');
  const proof = unsent.proof as { response: { response: { signature: string } } };
  const signature = proof.response.response.signature;
  const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
  const otherSignature = await send(kept, {
    ...unsent,
    proof: { ...proof, response: { ...proof.response, response: { ...proof.response.response, signature: flipped } } },
  });
  expect(otherSignature.status(), await otherSignature.text()).toBe(403);
  expect(((await otherSignature.json()) as { error: { code: string } }).error.code).toBe('PROOF_INVALID');
  expect((await approvalOf(request, kept.id)).status).toBe('pending');

  await page.goto(`${origin}/#/members`);
  await passkeyRow.getByRole('button', { name: 'Revoke' }).click();
  await passkeyRow.getByRole('button', { name: 'Revoke the passkey journey laptop' }).click();
  await expect(passkeyRow).toContainText('Revoked');
  const revoked = await send(kept, unsent);
  expect(revoked.status(), await revoked.text()).toBe(403);
  expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe('CREDENTIAL_REVOKED');
  expect((await approvalOf(request, kept.id)).status).toBe('pending');

  // The approved call's receipt verifies offline, with nothing but the file.
  const answer = await request.get(`/v1/decisions/${approved.callId}/receipt`, { headers: asOwner() });
  expect(answer.status(), await answer.text()).toBe(200);
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-passkey-receipt-'));
  try {
    const file = join(folder, 'receipt.json');
    writeFileSync(file, await answer.text());
    // execFileSync throws on a non-zero exit, with the command's output.
    const out = execFileSync(process.execPath, [join(repoRoot, 'apps/api/bin/tollgate.cjs'), 'audit', 'verify-receipt', file], {
      encoding: 'utf8',
    });
    expect(out).not.toBe('');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
