// tollgate serve: the console and the API on one port.
import { fileURLToPath } from 'node:url';
import { serve as serveNode } from '@hono/node-server';
import { createApp } from '../../server/app.ts';
import { CliError, type CliIo } from '../io.ts';
import type { ParsedOptions } from '../main.ts';

const WEB_DIST = fileURLToPath(new URL('../../../../web/dist', import.meta.url));

export function serve(options: ParsedOptions, io: CliIo): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  const port = Number(options.port ?? '8787');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('USAGE', `--port must be 0-65535, got ${options.port}`);
  const app = createApp({ webDist: WEB_DIST });
  return new Promise((resolve) => {
    const server = serveNode({ fetch: app.fetch, hostname: host, port }, (info) => {
      io.stdout.write(`Tollgate is serving the console and API at http://${host}:${info.port}/\n`);
    });
    server.on('error', (err: NodeJS.ErrnoException) => {
      io.stderr.write(`tollgate serve: cannot listen on ${host}:${port}: ${err.code ?? err.message}\n`);
      resolve(2);
    });
    const stop = () => server.close(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
