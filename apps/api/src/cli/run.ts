// Runs the tollgate CLI from its TypeScript sources (`node --import tsx apps/api/src/cli/run.ts ...`), as
// the bin does through tsx when its bundle is stale (apps/api/bin/tollgate.cjs; docs/cli.md, "Startup").
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
