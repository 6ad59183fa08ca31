// tollgate keys create / members list: keys for members and agents, shown once and stored hashed.
import { join, resolve } from 'node:path';
import { openDatabase } from '../../server/state/db.ts';
import { createKey, createMember, findMember, GRANTS, type Grant, listMembers, ROLES, type Role } from '../../server/state/members.ts';
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import type { ParsedOptions } from '../options.ts';

function database(options: ParsedOptions) {
  if (!options.data) throw new CliError('USAGE', 'missing --data DIR');
  return openDatabase(join(resolve(options.data), 'tollgate.db'));
}

export function keysCreate(options: ParsedOptions, io: CliIo): number {
  const grants = (options.grant ?? []) as string[];
  for (const g of grants)
    if (!(GRANTS as readonly string[]).includes(g)) throw new CliError('USAGE', `unknown grant ${g}; grants: ${GRANTS.join(', ')}`);
  if ((options.member === undefined) === (options.agent === undefined))
    throw new CliError('USAGE', 'give --member NAME --role ROLE, or --agent NAME');
  const db = database(options);
  try {
    let key: string;
    let owner: Record<string, string>;
    if (options.agent !== undefined) {
      if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(options.agent))
        throw new CliError('USAGE', 'an agent name is 1-64 lowercase letters, digits and -');
      key = createKey(db, { agent: options.agent }, grants as Grant[]);
      owner = { agent: options.agent };
    } else {
      const name = options.member as string;
      let member = findMember(db, name);
      if (!member) {
        const role = options.role;
        if (!role || !(ROLES as readonly string[]).includes(role))
          throw new CliError('USAGE', `a new member needs --role, one of ${ROLES.join(', ')}`);
        member = createMember(db, name, role as Role);
      } else if (options.role && options.role !== member.role) {
        throw new CliError('USAGE', `${name} is a ${member.role}; a key does not change a member's role`);
      }
      key = createKey(db, { member: member.id }, grants as Grant[]);
      owner = { member: member.name, id: member.id, role: member.role };
    }
    if (options.json) io.stdout.write(`${JSON.stringify({ ...owner, grants, key }, null, 2)}\n`);
    else io.stdout.write(`${key}\n`);
    return EXIT_OK;
  } finally {
    db.close();
  }
}

export function membersList(options: ParsedOptions, io: CliIo): number {
  const db = database(options);
  try {
    const members = listMembers(db).map(({ id, name, role, signing }) => ({ id, name, role, signing: signing === 1 }));
    if (options.json) io.stdout.write(`${JSON.stringify(members, null, 2)}\n`);
    else for (const m of members) io.stdout.write(`${m.id}  ${m.role.padEnd(9)} ${m.name}\n`);
    return EXIT_OK;
  } finally {
    db.close();
  }
}
