// Routes: events. GET /v1/events streams approvals, document versions and trial counts as server-sent events,
// so the console updates live; a heartbeat comment every 5 s keeps proxies from closing a quiet stream and lets
// the console tell a live stream from a dead one (it counts itself not live after two missed beats, docs/api.md).
import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { ServerEvent } from '../event-hub.ts';
import { onlyDeclaredQuery, router } from '../openapi.ts';
import { ERRORS, members } from './route-kit.ts';

export const HEARTBEAT_MS = 5_000;

const eventsRoute = createRoute({
  method: 'get',
  path: '/events',
  operationId: 'streamEvents',
  tags: ['events'],
  summary:
    'Server-sent events: `approval` {id, status}, `document` {id, sequence} and `trial` {document, candidate, running, calls, sampled, agreed, differed} (throttled), with a heartbeat comment (`: heartbeat`) every 5 s.',
  responses: {
    200: {
      content: { 'text/event-stream': { schema: z.string() } },
      description: 'An event stream; each event is named by its type and carries its JSON as data.',
    },
    401: ERRORS[401],
    403: ERRORS[403],
  },
});

/** GET /events, for members. */
export function eventRoutes() {
  const app = router();
  app.openAPIRegistry.registerPath(eventsRoute);
  // Described by registerPath (a stream, not a JSON answer), so it states the checks openapi() adds itself.
  app.get('/events', members(), onlyDeclaredQuery(new Set()), (c) => {
    const hub = c.get('ctx').events;
    return streamSSE(c, async (stream) => {
      const queue: ServerEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = hub.subscribe((event) => {
        queue.push(event);
        wake?.();
      });
      const heartbeat = setInterval(() => {
        void stream.write(': heartbeat\n\n');
      }, HEARTBEAT_MS);
      stream.onAbort(() => {
        clearInterval(heartbeat);
        unsubscribe();
        wake?.();
      });
      // A stopping server ends the stream, so the client reconnects elsewhere or later (docs/api.md, "Stopping the server").
      let closing = false;
      const forget = hub.onClose(() => {
        closing = true;
        wake?.();
      });
      // The first bytes: the client knows it is subscribed once it reads them.
      await stream.write(': connected\n\n');
      while (!closing && !stream.aborted && !stream.closed) {
        const event = queue.shift();
        if (event) {
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      clearInterval(heartbeat);
      unsubscribe();
      forget();
    });
  });
  return app;
}
