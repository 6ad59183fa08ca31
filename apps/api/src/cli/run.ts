// Runs the tollgate CLI on this process's arguments and sets its exit code: the entry both of the bundle
// (scripts/build-cli.mjs) and of the TypeScript fallback (apps/api/bin/tollgate.mjs).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
