// tollgate serve: the console and the API on one port, over a data folder (documents + tollgate.db).
import type { Server as HttpServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serve as serveNode } from '@hono/node-server';
import { type AppOptions, createApp } from '../../server/app.ts';
import { seedDemo } from '../../server/demo.ts';
import { withDirectGate } from '../../server/gate/direct-lane.ts';
import { consoleOrigins } from '../../server/identity/protected-resource.ts';
import { heartbeatFromEnvironment } from '../../server/state/nodes/model.ts';
import { DeliveryWorker } from '../../server/webhooks/delivery-worker.ts';
import { auditLogOf, openAuditLog } from '../audit-log.ts';
import { drainAndClose, drainDelaySecondsOf, drainSecondsOf, failReadinessFor } from '../drain.ts';
import { identityOf } from '../identity-file.ts';
import type { CliIo } from '../io.ts';
import { openWorkspace } from '../open-workspace.ts';
import {
  DEFAULT_APPROVAL_WAIT_SECONDS,
  DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  dataFolderOf,
  languageRevisionOf,
  listenAddressOf,
  metricsLoopbackOf,
  type ParsedOptions,
  secondsOption,
  webhooksOutboundOf,
} from '../options.ts';
import { otlpEndpointOf, startOtlpTracing } from '../otlp-tracing.ts';
import { corsOriginsOf, rpIdOf, trustForwardedProtoOf } from '../web-security-options.ts';

const WEB_DIST = fileURLToPath(new URL('../../../../web/dist', import.meta.url));

export async function serve(options: ParsedOptions, io: CliIo): Promise<number> {
  // Each flag may come from the environment instead (TOLLGATE_HOST, TOLLGATE_PORT, TOLLGATE_DATA; docs/cli.md).
  const { host, port } = listenAddressOf(options);
  const data = dataFolderOf(options);
  if (data !== undefined) options = { ...options, data };
  // /mcp's waits, as `tollgate mcp`'s --approval-wait and --upstream-timeout (docs/mcp.md).
  const mcp = {
    approvalWaitMs: secondsOption(options['mcp-approval-wait'], DEFAULT_APPROVAL_WAIT_SECONDS, 'mcp-approval-wait') * 1000,
    upstreamTimeoutMs: secondsOption(options['mcp-upstream-timeout'], DEFAULT_UPSTREAM_TIMEOUT_SECONDS, 'mcp-upstream-timeout') * 1000,
  };
  const languageRevision = languageRevisionOf(options['language-revision']);
  // Registered as a deciding node: the language gate (docs/deploy.md) counts it until it stops.
  const node = { languageRevision, heartbeatMs: heartbeatFromEnvironment(process.env) };
  // How long a stop lets requests in flight finish (drain.ts); read before the workspace opens, so a bad value opens nothing.
  const drainMs = drainSecondsOf(options['drain-timeout']) * 1000;
  // How long a stop keeps answering with readiness failed, before the drain (drain.ts); likewise read first.
  const drainDelayMs = drainDelaySecondsOf(options['drain-delay']) * 1000;
  const metricsLoopback = metricsLoopbackOf(options['metrics-loopback']);
  // Where webhooks may go besides public https (docs/webhooks.md); read first, so a bad value opens nothing.
  const outbound = webhooksOutboundOf(options);
  const otlpEndpoint = otlpEndpointOf(options['otlp-endpoint']);
  // The OpenID Connect issuers whose tokens are bearers (identity-file.ts); read first, so a bad file opens nothing.
  const identity = identityOf(options.identity);
  // Which pages may call the API, and whether the proxy's word on TLS counts for HSTS (web-security-options.ts).
  const corsOrigins = corsOriginsOf(options['cors-origin']);
  const trustForwardedProto = trustForwardedProtoOf(options['trust-forwarded-proto']);
  // The relying party passkeys are bound to (docs/approver-keys.md); the console's host name unless given.
  const rpId = rpIdOf(options['rp-id'] ?? (process.env.TOLLGATE_RP_ID || undefined));
  // The record as a stream for a SIEM (audit-log.ts): opened first, so a path that cannot be opened opens nothing else.
  const auditLogPath = auditLogOf(options);
  const auditLog = auditLogPath === undefined ? undefined : openAuditLog(auditLogPath, io);
  const { ctx, where } = await openWorkspace(options, 'serve', node).catch(async (err: unknown) => {
    await auditLog?.close();
    throw err;
  });
  // Followed before the demo seeds, so its members' and keys' entries are in the stream too.
  auditLog?.follow(ctx.state);
  const demo = options.demo ? await seedDemo(ctx) : undefined;
  // With the stream on stdout, stdout is the stream's alone: what serve says for people goes to stderr.
  const say = auditLogPath === '-' ? io.stderr : io.stdout;
  const drain = { draining: false };
  const appOptions: AppOptions = {
    ctx,
    webDist: WEB_DIST,
    mcp,
    drain,
    metricsLoopback,
    webhooks: { outbound },
    corsOrigins,
    trustForwardedProto,
    ...(rpId !== undefined ? { rpId } : {}),
    // The console signs in at the issuers offered to it, so its CSP lets it reach them (docs/security.md).
    ...(identity ? { identity, connectSources: consoleOrigins(identity.config) } : {}),
  };
  const app = createApp(appOptions);
  // Webhooks go out from every serve node, off the request path (docs/webhooks.md); `mcp` runs no worker.
  const webhooks = new DeliveryWorker(ctx, { policy: outbound, ...(ctx.node ? { node: ctx.node.id } : {}) }).start();
  // Spans exported by OTLP only when an endpoint is set (otlp-tracing.ts, docs/deploy.md "Metrics and traces").
  const tracing = startOtlpTracing(process.env, otlpEndpoint);
  return new Promise((done) => {
    // No createServer option is given, so the server is node:http's (the type also admits HTTP/2's).
    // A gate call in the direct lane's shape is answered without the framework (gate/direct-lane.ts).
    const server = serveNode({ fetch: app.fetch, hostname: host, port, createServer: withDirectGate(() => appOptions) }, (info) => {
      say.write(`Tollgate is serving the console and API at http://${host}:${info.port}/ (${where})\n`);
      if (demo) {
        say.write('Demo keys (shown once; also in demo-keys.json in the data folder):\n');
        for (const m of demo.members) say.write(`  ${m.role.padEnd(9)} ${m.name.padEnd(7)} ${m.key}\n`);
        for (const a of demo.agents) say.write(`  agent     ${a.name} ${a.key}\n`);
      }
    });
    server.on('error', (err: NodeJS.ErrnoException) => {
      io.stderr.write(`tollgate serve: cannot listen on ${host}:${port}: ${err.code ?? err.message}\n`);
      void webhooks
        .stop()
        .then(() => ctx.close())
        .then(() => auditLog?.close())
        .then(() => done(2));
    });
    // A stop (docs/api.md, "Stopping the server"; drain.ts): readiness fails; for --drain-delay the server still
    // answers (a second signal ends the delay); then no new connections, event streams ended, idle keep-alive
    // connections closed, requests in flight finished (any still open after the drain timeout are cut), then the
    // node off the registry, the decision log written and the database closed, then the audit log's last lines
    // (the final checkpoint among them) written.
    let delay: ReturnType<typeof failReadinessFor> | undefined;
    const stop = () => {
      if (delay) return delay.cut();
      delay = failReadinessFor(drain, drainDelayMs);
      void delay.waited
        .then(() => {
          // From here a further signal has its default effect: it ends the process at once.
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          // The attempts under way finish (each bounded by its timeout) before the state closes.
          return webhooks.stop().then(() => drainAndClose(server as HttpServer, ctx, drain, drainMs));
        })
        .then(
          async () => {
            await auditLog?.close();
            await tracing?.shutdown();
            done(0);
          },
          (err: unknown) => {
            io.stderr.write(`tollgate serve: the stop did not finish cleanly: ${String(err)}\n`);
            void Promise.resolve(auditLog?.close()).then(() => done(1));
          },
        );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
