// Journeys on the Members & keys page (docs/console.md, "Members and keys"). The e2e server is shared by every
// spec of a run, so these make members and keys of their own, never touch the demo's, and remove what they added.
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { demoKeys, memberKey, signIn } from './demo.ts';

const asOwner = { authorization: `Bearer ${memberKey('owner')}` };

/** A name no other run or spec uses. */
const unique = (what: string) => `e2e-${what}-${Date.now().toString(36)}`;

/** GET /v1/me with `key`: its status and the error code of a refusal. */
async function me(request: APIRequestContext, key: string): Promise<{ status: number; code?: string; name?: string }> {
  const answer = await request.get('/v1/me', { headers: { authorization: `Bearer ${key}` } });
  const body = (await answer.json()) as { name?: string; error?: { code: string } };
  return { status: answer.status(), code: body.error?.code, name: body.name };
}

async function addMember(request: APIRequestContext, name: string, role: string): Promise<string> {
  const added = await request.post('/v1/members', { headers: asOwner, data: { name, role } });
  expect(added.status()).toBe(201);
  return ((await added.json()) as { id: string }).id;
}

async function memberId(request: APIRequestContext, name: string): Promise<string> {
  const listed = (await (await request.get('/v1/members', { headers: asOwner })).json()) as { members: { id: string; name: string }[] };
  return listed.members.find((m) => m.name === name)?.id ?? '';
}

async function removeMember(request: APIRequestContext, id: string): Promise<void> {
  const removed = await request.delete(`/v1/members/${encodeURIComponent(id)}`, { headers: asOwner });
  expect(removed.status()).toBe(200);
}

/** The key shown once: its panel, the key's text in it, and that it says so. */
async function shownOnce(page: Page): Promise<string> {
  const panel = page.getByRole('region', { name: /^New key/ });
  await expect(panel).toContainText('This is the only time you will see this key.');
  await expect(panel.getByRole('heading')).toBeFocused();
  const secret = await panel.getByLabel('The key').inputValue();
  expect(secret).toMatch(/^tg_/);
  return secret;
}

async function closeShown(page: Page, secret: string): Promise<void> {
  await page
    .getByRole('region', { name: /^New key/ })
    .getByRole('button', { name: 'Close' })
    .click();
  await expect(page.getByRole('region', { name: /^New key/ })).toHaveCount(0);
  // Forgotten: not in the page, the storage or the address.
  expect(await page.content()).not.toContain(secret);
  expect(page.url()).not.toContain(secret);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(secret);
}

function keyRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Keys, oldest first' }).getByRole('row').filter({ hasText: name });
}

test('the owner adds a member, makes them a key seen once, revokes it, and rotates another with no overlap', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = unique('dev');
  await signIn(page, memberKey('owner'), '#/members');
  await expect(page.getByRole('heading', { level: 1, name: 'Members & keys' })).toBeVisible();

  const addForm = page.getByRole('form', { name: 'Add member' });
  await addForm.getByLabel('Name').fill(name);
  await addForm.getByLabel('Role').selectOption('developer');
  await addForm.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} was added as developer.` })).toBeVisible();
  const members = page.getByRole('table', { name: 'Members, oldest first' });
  await expect(members.getByRole('row').filter({ hasText: name }).getByLabel(`Role of ${name}`)).toHaveValue('developer');
  const id = await memberId(request, name);
  expect(id).not.toBe('');

  try {
    // A key for the new member, shown once and copied.
    const keyName = unique('laptop');
    const newKey = page.getByRole('form', { name: 'New key' });
    await newKey.getByLabel('Key name (optional)').fill(keyName);
    await newKey.getByLabel('Member', { exact: true }).selectOption(name);
    await newKey.getByRole('button', { name: 'Make the key' }).click();
    const secret = await shownOnce(page);
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await closeShown(page, secret);

    // The key works, as the member.
    expect(await me(request, secret)).toMatchObject({ status: 200, name });
    const row = keyRow(page, keyName);
    await expect(row).toContainText(`member ${name}`);
    await expect(row).toContainText(`…${secret.slice(-4)}`);
    await expect(row.getByText('Active', { exact: true })).toBeVisible();

    // Revoked, it is refused on its next call.
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: `Revoke ${keyName}` }).click();
    await expect(row.getByText('Revoked', { exact: true })).toBeVisible();
    expect(await me(request, secret)).toMatchObject({ status: 401, code: 'KEY_REVOKED' });

    // Another key, rotated with no overlap: the old is refused as expired, its successor works.
    const ciName = unique('ci');
    const made = await request.post('/v1/keys', { headers: asOwner, data: { name: ciName, member: name } });
    expect(made.status()).toBe(201);
    const old = ((await made.json()) as { key: string }).key;
    await page.reload();
    const ciRow = keyRow(page, ciName);
    await ciRow.getByRole('button', { name: 'Rotate' }).click();
    await ciRow.getByLabel('Now').check();
    await ciRow.getByRole('button', { name: `Rotate ${ciName}` }).click();
    const successor = await shownOnce(page);
    expect(successor).not.toBe(old);
    expect(await me(request, old)).toMatchObject({ status: 401, code: 'KEY_EXPIRED' });
    expect(await me(request, successor)).toMatchObject({ status: 200, name });
    await closeShown(page, successor);
    await expect(keyRow(page, ciName).getByText('Expired', { exact: true })).toBeVisible();

    // The record names each change, newest first.
    const changes = page.getByRole('table', { name: 'Changes to members and keys, newest first' });
    await expect(changes.getByRole('row').nth(1)).toContainText('key.rotated');
    await expect(changes).toContainText('member.added');
  } finally {
    await removeMember(request, id);
  }
});

test('a viewer sees only their own keys, with no forms and no role selects', async ({ page, request }) => {
  const name = unique('viewer');
  const id = await addMember(request, name, 'viewer');
  try {
    const made = await request.post('/v1/keys', { headers: asOwner, data: { name: unique('own'), member: name } });
    expect(made.status()).toBe(201);
    const { key } = (await made.json()) as { key: string };
    await signIn(page, key, '#/members');
    const keys = page.getByRole('table', { name: 'Your keys, oldest first' });
    await expect(keys).toBeVisible();
    // Only theirs: one key, held by them (the demo's keys are not listed).
    await expect(keys.getByRole('row')).toHaveCount(2);
    await expect(keys.getByRole('row').nth(1)).toContainText(`member ${name}`);
    await expect(keys.getByRole('button', { name: 'Rotate' })).toBeVisible();
    await expect(keys.getByRole('button', { name: 'Revoke' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Members, oldest first' })).toContainText(name);
    await expect(page.getByRole('form', { name: 'Add member' })).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'New key' })).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: /^Role of / })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Changes' })).toHaveCount(0);
  } finally {
    await removeMember(request, id);
  }
});

test("the last owner's role select refuses a demotion with LAST_OWNER", async ({ page, request }) => {
  // Only safe while the demo owner is the one owner: a second owner would let the demotion through.
  const listed = (await (await request.get('/v1/members', { headers: asOwner })).json()) as { members: { name: string; role: string }[] };
  const owners = listed.members.filter((m) => m.role === 'owner');
  const owner = demoKeys().members.find((m) => m.role === 'owner');
  expect(owners.map((m) => m.name)).toEqual([owner?.name]);

  await signIn(page, memberKey('owner'), '#/members');
  const select = page.getByLabel(`Role of ${owner?.name}`, { exact: true });
  await select.selectOption('admin');
  const row = page.getByRole('table', { name: 'Members, oldest first' }).getByRole('row').filter({ has: select });
  await expect(row.getByRole('alert')).toContainText('(LAST_OWNER)');
  await expect(select).toHaveValue('owner');
  await expect(select).toHaveAccessibleDescription(/LAST_OWNER/);
  expect(await me(request, memberKey('owner'))).toMatchObject({ status: 200 });
});
