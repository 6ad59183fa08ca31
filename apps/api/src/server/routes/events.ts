// Routes: events. Each route is declared with createRoute and zod schemas, so it is described in /v1/openapi.json.
import { router } from '../openapi.ts';

export function eventRoutes() {
  const app = router();
  return app;
}
