// The tollgate CLI's entry: parses the command line and runs one command, mapping every failure to
// an exit code and a message (never a stack trace).

import { TOLLGATE_VERSION } from '../server/version.ts';
import { failureProblems } from './failure-json.ts';
import { CliError, type CliIo, EXIT_OK, EXIT_UNREADABLE } from './io.ts';
import { one, parseCommandLine } from './options.ts';
import { commandOf, helpFor, USAGE, usagePointer } from './usage.ts';

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  // Alone, as other tools take it: `--version` elsewhere is a value flag (`ruleset run --version N`).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === 'version')) {
    io.stdout.write(`tollgate ${TOLLGATE_VERSION}\n`);
    return EXIT_OK;
  }
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    // The reason and a pointer to the command's help, not the whole help (docs/cli.md, "Usage errors").
    const firstFlag = argv.findIndex((a) => a.startsWith('-'));
    const words = firstFlag === -1 ? argv : argv.slice(0, firstFlag);
    // node's parser adds how to pass a positional that starts with '-': the first sentence is the reason.
    const reason = (err as Error).message.split('. ')[0] as string;
    io.stderr.write(`${reasonLine(words, reason)}${usagePointer(words)}`);
    return EXIT_UNREADABLE;
  }
  const { values, positionals } = parsed;
  const [group, command, ...rest] = positionals;
  try {
    if (group === undefined || group === 'help') {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (values.help) {
      io.stdout.write(helpFor(positionals));
      return EXIT_OK;
    }
    // Commands load on demand: serving never pays for the policy tools, and the reverse.
    if (group === 'serve' && command === undefined) return await (await import('./commands/serve.ts')).serve(values, io);
    if (group === 'migrate' && command === undefined) return await (await import('./commands/migrate.ts')).migrate(values, io);
    if (group === 'import' && command === undefined) return await (await import('./commands/import.ts')).importWorkspace(values, io);
    if (group === 'export' && command === undefined) return await (await import('./commands/export.ts')).exportWorkspace(values, io);
    if (group === 'init') {
      // Prompts only where a person can answer: stdin and stdout both a terminal (docs/cli.md, "tollgate init").
      const terminal = process.stdin.isTTY && process.stdout.isTTY ? { input: process.stdin, output: process.stdout } : undefined;
      return await (await import('./commands/init.ts')).init(positionals.slice(1), values, io, terminal);
    }
    if (group === 'mcp' && command === undefined) return await (await import('./commands/mcp.ts')).mcp(values, io);
    if (group === 'mcp' && command === 'import') {
      return await (await import('./commands/mcp-import.ts')).mcpImport(one(rest, 'FILE'), values, io);
    }
    if (group === 'policy') {
      switch (command) {
        case 'validate':
          return (await import('./commands/policy-validate.ts')).policyValidate(one(rest, 'FILE'), values, io);
        case 'evaluate':
          return (await import('./commands/policy-evaluate.ts')).policyEvaluate(one(rest, 'FILE'), values, io);
        case 'test':
          return (await import('./commands/policy-test.ts')).policyTest(one(rest, 'FILE'), values, io);
        case 'template':
          return (await import('./commands/policy-template.ts')).policyTemplate(rest, values, io);
        case 'map':
          return (await import('./commands/policy-map.ts')).policyMap(one(rest, 'POLICY'), values, io);
        case 'diff':
          return (await import('./commands/policy-map.ts')).policyDiff(rest, values, io);
      }
    }
    if (group === 'rules') {
      switch (command) {
        case 'compile':
          return await (await import('./commands/rules-compile.ts')).rulesCompile(one(rest, 'FILE'), values, io);
        case 'check':
          return (await import('./commands/rules-check.ts')).rulesCheck(one(rest, 'FILE'), values, io);
        case 'equivalent':
          return (await import('./commands/rules-equivalent.ts')).rulesEquivalent(rest, io);
      }
    }
    if (group === 'ruleset') {
      switch (command) {
        case 'validate':
          return await (await import('./commands/ruleset.ts')).rulesetValidate(one(rest, 'FILE'), values, io);
        case 'run':
          return await (await import('./commands/ruleset.ts')).rulesetRun(one(rest, 'ID'), values, io);
      }
    }
    if (group === 'store' && rest.length === 0) {
      switch (command) {
        case 'check':
          return (await import('./commands/store.ts')).storeCheck(values, io);
        case 'repair':
          return await (await import('./commands/store.ts')).storeRepair(values, io);
      }
    }
    if (group === 'keys') {
      switch (command) {
        case 'create':
          if (rest.length === 0) return await (await import('./commands/keys.ts')).keysCreate(values, io);
          break;
        case 'list':
          if (rest.length === 0) return await (await import('./commands/keys.ts')).keysList(values, io);
          break;
        case 'rotate':
          return await (await import('./commands/keys.ts')).keysRotate(rest, values, io);
        case 'revoke':
          return await (await import('./commands/keys.ts')).keysRevoke(rest, values, io);
      }
    }
    if (group === 'webhooks') {
      switch (command) {
        case 'add':
          return await (await import('./commands/webhooks.ts')).webhooksAdd(rest, values, io);
        case 'list':
          if (rest.length === 0) return await (await import('./commands/webhooks.ts')).webhooksList(values, io);
          break;
        case 'remove':
          return await (await import('./commands/webhooks.ts')).webhooksRemove(rest, values, io);
        case 'rotate-secret':
          return await (await import('./commands/webhooks.ts')).webhooksRotateSecret(rest, values, io);
      }
    }
    if (group === 'member-key-secret' && command === 'rotate') {
      return await (await import('./commands/member-key-secret.ts')).memberKeySecretRotate(rest, values, io);
    }
    if (group === 'members') {
      switch (command) {
        case 'list':
          if (rest.length === 0) return await (await import('./commands/keys.ts')).membersList(values, io);
          break;
        case 'add':
          return await (await import('./commands/members.ts')).membersAdd(rest, values, io);
        case 'role':
          return await (await import('./commands/members.ts')).membersRole(rest, values, io);
        case 'remove':
          return await (await import('./commands/members.ts')).membersRemove(rest, values, io);
      }
    }
    if (group === 'approvals') {
      if (command === 'key' && rest.length === 1 && rest[0] === 'create')
        return await (await import('./commands/approvals.ts')).approvalsKeyCreate(values, io);
      if (command === 'approve' || command === 'deny')
        return await (await import('./commands/approvals.ts')).approvalsDecide(command, rest, values, io);
    }
    if (group === 'trial') {
      switch (command) {
        case 'start':
          return await (await import('./commands/trial.ts')).trialStart(rest, values, io);
        case 'show':
          return await (await import('./commands/trial.ts')).trialShow(rest, values, io);
        case 'stop':
          return await (await import('./commands/trial.ts')).trialStop(rest, values, io);
      }
    }
    if (group === 'verify' && command !== undefined && rest.length === 0) return (await import('./commands/verify.ts')).verify(command, io);
    if (group === 'audit' && command === 'export' && rest.length === 0)
      return await (await import('./commands/audit-export.ts')).auditExport(values, io);
    if (group === 'audit' && command === 'verify')
      return (await import('./commands/audit-verify.ts')).auditVerify(one(rest, 'FILE'), values, io);
    if (group === 'audit' && command === 'verify-receipt')
      return (await import('./commands/audit-verify-receipt.ts')).auditVerifyReceipt(one(rest, 'FILE'), values, io);
    throw new CliError('USAGE', `unknown command: ${positionals.join(' ')}`);
  } catch (err) {
    if (err instanceof CliError) {
      if (err.code === 'USAGE') io.stderr.write(`${reasonLine(positionals, err.message)}${usagePointer(positionals)}`);
      else {
        io.stderr.write(`${err.message}\n`);
        // A machine reader asked for JSON gets the failure as JSON too, each problem with its place.
        if (values.json === true) io.stdout.write(`${JSON.stringify({ errors: failureProblems(err) }, null, 2)}\n`);
      }
      return err.exitCode;
    }
    // A bug, not bad input: say so without a stack trace, and fail.
    io.stderr.write(`tollgate: internal error: ${(err as Error).message}\n`);
    return 70;
  }
}

/** A usage error's one line: the command, then the reason (which never names the command itself). */
function reasonLine(words: string[], reason: string): string {
  const command = commandOf(words);
  return `tollgate${command === undefined ? '' : ` ${command}`}: ${reason}\n`;
}
