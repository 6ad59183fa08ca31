// npm start [-- serve options]: builds the console only when apps/web/dist has no build, then serves it with the API
// over the demo workspace in ./.tollgate-data, or where TOLLGATE_DATA, TOLLGATE_DATABASE_URL or a flag says
// (start-args.mjs; docs/console.md, "Layout and the build"). `npm run build` refreshes a build.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveArgs } from './start-args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = fileURLToPath(new URL('../apps/web/dist/index.html', import.meta.url));

if (existsSync(built)) {
  console.log('start: serving the console built in apps/web/dist (run `npm run build` after changing it)');
} else {
  console.log('start: no console build yet; building apps/web');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const cli = fileURLToPath(new URL('../apps/api/bin/tollgate.cjs', import.meta.url));
const server = spawn(process.execPath, [cli, ...serveArgs(process.argv.slice(2), process.env)], {
  cwd: root,
  stdio: 'inherit',
});
// Ctrl+C reaches the server through the terminal's process group; a plain kill of this script is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
