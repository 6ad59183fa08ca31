// tollgate keys create|list|rotate|revoke and members list: keys for members and agents, shown once and stored
// hashed, in the data folder's tollgate.db or the PostgreSQL database nodes share (--database or
// TOLLGATE_DATABASE_URL), through the StateStore both keep (server/state/state-store.ts). The CLI acts as the
// operator: what an owner may do (it could write the rows itself), judged by the same rules and recorded as
// `operator` (docs/security.md, "Keys").
import { join } from 'node:path';
import { openDatabase } from '../../server/state/db.ts';
import { noMember } from '../../server/state/members/changes.ts';
import { SecretMismatchError } from '../../server/state/members/custodial-keys.ts';
import { OPERATOR, type Outcome } from '../../server/state/members/identity-store.ts';
import { type KeyInfo, MAX_OVERLAP_SECONDS } from '../../server/state/members/lifecycle.ts';
import { GRANTS, type Grant, keyStatus, ROLE_GRANTS, ROLES, type Role } from '../../server/state/members/model.ts';
import { PostgresStateStore } from '../../server/state/postgres-state.ts';
import { SqliteStateStore } from '../../server/state/sqlite-state.ts';
import type { StateStore } from '../../server/state/state-store.ts';
import { dataFolderToWrite, existingDataFolder } from '../data-folder.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { openCurrentDatabase } from '../open-database.ts';
import { custodialKeysOf, secretMismatch } from '../open-workspace.ts';
import { databaseOf, one, type ParsedOptions } from '../options.ts';

/** The state store the options name, with what closes it; a data folder is made when the command writes. */
export async function stateOf(
  options: ParsedOptions,
  command: string,
  writes: boolean,
): Promise<{ state: StateStore; close(): Promise<void> }> {
  const url = databaseOf(options);
  if (url !== undefined) {
    const pool = await openCurrentDatabase(url, command);
    const custodial = custodialKeysOf(options, command, undefined);
    const state = await PostgresStateStore.open(pool, custodial).catch(async (err: unknown) => {
      await pool.end().catch(() => {});
      throw err instanceof SecretMismatchError ? secretMismatch(command, err) : err;
    });
    return {
      state,
      async close() {
        await state.close();
        await pool.end();
      },
    };
  }
  if (!options.data) throw new CliError('USAGE', 'missing --data DIR (or --database URL)');
  const dir = writes ? dataFolderToWrite(options.data, command) : existingDataFolder(options.data, command);
  const db = openDatabase(join(dir, 'tollgate.db'));
  let state: SqliteStateStore;
  try {
    state = new SqliteStateStore(db, custodialKeysOf(options, command, dir));
  } catch (err) {
    db.close();
    throw err instanceof SecretMismatchError ? secretMismatch(command, err) : err;
  }
  // Closing the store closes its database.
  return { state, close: () => state.close() };
}

export async function keysCreate(options: ParsedOptions, io: CliIo): Promise<number> {
  const extra = (options.grant ?? []) as string[];
  for (const g of extra)
    if (!(GRANTS as readonly string[]).includes(g)) throw new CliError('USAGE', `${g} is not a grant; the grants are ${GRANTS.join(', ')}`);
  if ((options.member === undefined) === (options.agent === undefined))
    throw new CliError('USAGE', 'give --member NAME --role ROLE, or --agent NAME');
  if (options.agent !== undefined && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(options.agent))
    throw new CliError('USAGE', 'an agent name is 1-64 lowercase letters, digits and -');
  if (options.agent !== undefined && options.role !== undefined) throw new CliError('USAGE', '--role is for a member; an agent has none');
  if (options.role !== undefined && !(ROLES as readonly string[]).includes(options.role))
    throw new CliError('USAGE', `${options.role} is not a role; the roles are ${ROLES.join(', ')}`);
  const now = new Date();
  const expiresAt =
    options['expires-in'] === undefined
      ? null
      : new Date(now.getTime() + durationSeconds(options['expires-in'], 'expires-in', 1) * 1000).toISOString();
  const spec = { name: options.name ?? null, expiresAt };
  const { state, close } = await stateOf(options, 'keys create', true);
  try {
    let key: string;
    let owner: Record<string, string>;
    let grants: Grant[];
    if (options.agent !== undefined) {
      grants = grantsOf([], extra);
      key = made(await state.identity.issueKey({ holder: { agent: options.agent }, grants, ...spec }, OPERATOR, now), 'keys create').key;
      owner = { agent: options.agent };
    } else {
      const name = options.member as string;
      let member = await state.findMember(name);
      if (!member) {
        if (options.role === undefined) throw new CliError('USAGE', `a new member needs --role ROLE, one of ${ROLES.join(', ')}`);
        member = await state.createMember(name, options.role as Role);
      } else if (options.role && options.role !== member.role) {
        throw new CliError('USAGE', `${name} is a ${member.role}; a key does not change a member's role`);
      }
      // The grants its role has in the demo workspace, and any --grant besides (one table: ROLE_GRANTS).
      grants = grantsOf(ROLE_GRANTS[member.role], extra);
      key = made(await state.identity.issueKey({ holder: { member: member.id }, grants, ...spec }, OPERATOR, now), 'keys create').key;
      owner = { member: member.name, id: member.id, role: member.role };
    }
    if (options.json)
      io.stdout.write(`${JSON.stringify({ ...owner, grants, ...(expiresAt ? { expires_at: expiresAt } : {}), key }, null, 2)}\n`);
    else io.stdout.write(`${key}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}

export async function membersList(options: ParsedOptions, io: CliIo): Promise<number> {
  const { state, close } = await stateOf(options, 'members list', false);
  try {
    const members = (await state.members()).map(({ id, name, role, signing }) => ({ id, name, role, signing: signing === 1 }));
    if (options.json) io.stdout.write(`${JSON.stringify(members, null, 2)}\n`);
    else for (const m of members) io.stdout.write(`${m.id}  ${m.role.padEnd(9)} ${m.name}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}

/** The role's grants and the extra ones, each once, in GRANTS' order. */
function grantsOf(fromRole: readonly Grant[], extra: string[]): Grant[] {
  return GRANTS.filter((g) => fromRole.includes(g) || extra.includes(g));
}

/** What a change made, or its refusal as exit 1 with the code the API answers too (docs/security.md). */
export function made<T>(outcome: Outcome<T>, command: string): T {
  if ('ok' in outcome) return outcome.ok;
  const { code, message } = outcome.refusal;
  throw new CliError({ code }, `tollgate ${command}: ${code}: ${message}`, EXIT_INVALID);
}

/**
 * A duration as the flags take it: a whole number of seconds, minutes, hours or days (`90s`, `15m`, `12h`, `30d`),
 * at least `min` seconds and at most a year.
 */
export function durationSeconds(text: string, flag: string, min: number): number {
  const m = /^([0-9]{1,6})([smhd])$/.exec(text);
  const seconds = m ? Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'] : Number.NaN;
  if (!(seconds >= min && seconds <= 366 * 86400)) {
    throw new CliError(
      'USAGE',
      `--${flag} is a whole number of s, m, h or d (e.g. 90s, 12h, 30d), ${min === 0 ? '0s' : '1s'} to 366d: not ${text}`,
    );
  }
  return seconds;
}

export async function keysList(options: ParsedOptions, io: CliIo): Promise<number> {
  if (options.member !== undefined && options.agent !== undefined)
    throw new CliError('USAGE', 'give --member NAME or --agent NAME, not both');
  const { state, close } = await stateOf(options, 'keys list', false);
  try {
    let filter = {};
    if (options.agent !== undefined) filter = { agent: options.agent };
    else if (options.member !== undefined) {
      const member = await state.findMember(options.member);
      if (!member) return made({ refusal: noMember(options.member) }, 'keys list');
      filter = { memberId: member.id };
    }
    const now = new Date();
    const keys = (await state.identity.listKeys(filter)).map((k) => ({ ...keyJson(k), status: keyStatus(k, now) }));
    if (options.json) io.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
    else
      for (const k of keys) {
        const holder = k.agent !== null ? `agent:${k.agent}` : k.member_name;
        io.stdout.write(`${k.id}  ${k.status.padEnd(7)} ${holder}${k.name ? ` (${k.name})` : ''}${k.hint ? ` …${k.hint}` : ''}\n`);
      }
    return EXIT_OK;
  } finally {
    await close();
  }
}

export async function keysRotate(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const id = one(rest, 'KEY_ID');
  const overlap = options.overlap === undefined ? 0 : durationSeconds(options.overlap, 'overlap', 0);
  if (overlap > MAX_OVERLAP_SECONDS) throw new CliError('USAGE', `--overlap is at most 30d: not ${options.overlap}`);
  const now = new Date();
  const expiresAt =
    options['expires-in'] === undefined
      ? null
      : new Date(now.getTime() + durationSeconds(options['expires-in'], 'expires-in', 1) * 1000).toISOString();
  const { state, close } = await stateOf(options, 'keys rotate', false);
  try {
    const { key, info, previous } = made(await state.identity.rotateKey(id, overlap, expiresAt, OPERATOR, now), 'keys rotate');
    if (options.json) io.stdout.write(`${JSON.stringify({ ...keyJson(info), key, previous: keyJson(previous) }, null, 2)}\n`);
    else {
      io.stdout.write(`${key}\n`);
      io.stderr.write(`tollgate keys rotate: ${previous.id} works until ${previous.expires_at}; the new key is ${info.id}\n`);
    }
    return EXIT_OK;
  } finally {
    await close();
  }
}

export async function keysRevoke(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const id = one(rest, 'KEY_ID');
  const { state, close } = await stateOf(options, 'keys revoke', false);
  try {
    const info = made(await state.identity.revokeKey(id, OPERATOR), 'keys revoke');
    if (options.json) io.stdout.write(`${JSON.stringify(keyJson(info), null, 2)}\n`);
    else io.stdout.write(`revoked ${info.id} at ${info.revoked_at}\n`);
    return EXIT_OK;
  } finally {
    await close();
  }
}

/** A key as the CLI prints it: what the API's lists show (never the key or its hash). */
function keyJson(info: KeyInfo) {
  const { member_role: _role, ...rest } = info;
  return rest;
}
