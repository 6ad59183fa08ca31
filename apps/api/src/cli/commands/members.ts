// tollgate members add|role|remove: members managed from the command line, as the operator with the database
// (docs/security.md, "Roles"): judged by the rules the API's routes are (the last owner stays), and recorded.
import { OPERATOR } from '../../server/state/members/identity-store.ts';
import { type MemberRow, ROLES, type Role } from '../../server/state/members/model.ts';
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import { one, type ParsedOptions } from '../options.ts';
import { made, stateOf } from './keys.ts';

function roleOf(options: ParsedOptions): Role {
  if (options.role === undefined) throw new CliError('USAGE', `give --role ROLE, one of ${ROLES.join(', ')}`);
  if (!(ROLES as readonly string[]).includes(options.role))
    throw new CliError('USAGE', `${options.role} is not a role; the roles are ${ROLES.join(', ')}`);
  return options.role as Role;
}

function print(io: CliIo, options: ParsedOptions, member: MemberRow, line: string): number {
  const { id, name, role, created_at, removed_at } = member;
  if (options.json) io.stdout.write(`${JSON.stringify({ id, name, role, created_at, removed_at }, null, 2)}\n`);
  else io.stdout.write(`${line}\n`);
  return EXIT_OK;
}

export async function membersAdd(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const name = one(rest, 'NAME');
  const role = roleOf(options);
  const { state, close } = await stateOf(options, 'members add', true);
  try {
    const member = made(await state.identity.addMember(name, role, OPERATOR), 'members add');
    return print(io, options, member, `${member.id}  ${member.role.padEnd(9)} ${member.name}`);
  } finally {
    await close();
  }
}

export async function membersRole(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const name = one(rest, 'NAME');
  const role = roleOf(options);
  const { state, close } = await stateOf(options, 'members role', false);
  try {
    const member = made(await state.identity.setMemberRole(name, role, OPERATOR), 'members role');
    return print(io, options, member, `${member.id}  ${member.role.padEnd(9)} ${member.name}`);
  } finally {
    await close();
  }
}

export async function membersRemove(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const name = one(rest, 'NAME');
  const { state, close } = await stateOf(options, 'members remove', false);
  try {
    const member = made(await state.identity.removeMember(name, OPERATOR), 'members remove');
    return print(io, options, member, `removed ${member.name} (${member.id}); their keys are revoked`);
  } finally {
    await close();
  }
}
