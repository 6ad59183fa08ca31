// tollgate keys create / members list: keys for members and agents, shown once and stored hashed, in the data
// folder's tollgate.db or the PostgreSQL database nodes share (--database or TOLLGATE_DATABASE_URL), through the
// StateStore both keep (server/state/state-store.ts).
import { join } from 'node:path';
import { openDatabase } from '../../server/state/db.ts';
import { GRANTS, type Grant, ROLE_GRANTS, ROLES, type Role } from '../../server/state/members/model.ts';
import { PostgresStateStore } from '../../server/state/postgres-state.ts';
import { SqliteStateStore } from '../../server/state/sqlite-state.ts';
import type { StateStore } from '../../server/state/state-store.ts';
import { dataFolderToWrite, existingDataFolder } from '../data-folder.ts';
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import { openCurrentDatabase } from '../open-database.ts';
import { databaseOf, type ParsedOptions } from '../options.ts';

/** The state store the options name, with what closes it; a data folder is made when the command writes. */
async function stateOf(options: ParsedOptions, command: string, writes: boolean): Promise<{ state: StateStore; close(): Promise<void> }> {
  const url = databaseOf(options);
  if (url !== undefined) {
    const pool = await openCurrentDatabase(url, command);
    const state = await PostgresStateStore.open(pool).catch(async (err: unknown) => {
      await pool.end().catch(() => {});
      throw err;
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
  const state = new SqliteStateStore(openDatabase(join(dir, 'tollgate.db')));
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
  const { state, close } = await stateOf(options, 'keys create', true);
  try {
    let key: string;
    let owner: Record<string, string>;
    let grants: Grant[];
    if (options.agent !== undefined) {
      grants = grantsOf([], extra);
      key = await state.createKey({ agent: options.agent }, grants);
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
      key = await state.createKey({ member: member.id }, grants);
      owner = { member: member.name, id: member.id, role: member.role };
    }
    if (options.json) io.stdout.write(`${JSON.stringify({ ...owner, grants, key }, null, 2)}\n`);
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
