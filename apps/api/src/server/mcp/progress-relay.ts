// The progress a tools/call's client hears (docs/mcp.md, "What each decision looks like to the agent"): with the
// progress token it gave, a held call's seconds of waiting (wait-approval.ts), then the upstream's own progress
// (forward-call.ts), as one sequence. MCP's progress must increase with each notification, so a value that
// would not is dropped.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Progress, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** Sends one progress notification on the call's stream, when it increases on the last one sent. */
export type ProgressRelay = (progress: Progress) => void;

/**
 * The relay of one call's progress to its client; undefined when the client gave no progress token.
 *
 * @example
 * const relay = progressRelay(extra);
 * relay?.({ progress: 3, message: 'waiting for a person to decide approval 6f1c...' });
 */
export function progressRelay(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ProgressRelay | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let progressed = Number.NEGATIVE_INFINITY;
  return ({ progress, total, message }) => {
    if (progress <= progressed) return;
    progressed = progress;
    const notice: ServerNotification = {
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      },
    };
    void extra.sendNotification(notice).catch(() => undefined);
  };
}
