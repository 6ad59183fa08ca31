// GET /v1/events, live: approval events invalidate every ['approvals'] query; reconnects after a drop. Live
// follows the stream's heartbeat, not the socket: two silent intervals or an ended stream mean not live.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { readEventStream } from '../../../lib/event-stream.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { watchLiveness } from '../../../lib/stream-liveness.ts';

const RETRY_MS = 2000;

/** Subscribes while mounted; answers whether the stream is live (its heartbeat arrives). */
export function useApprovalEvents(key: string): boolean {
  const client = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    // A fetch still in flight began before the event: cancelled, so the lists are read again after it. (Invalidating
    // alone joins a first fetch that has no data yet, and the event's request never shows until the next event.)
    const refetchApprovals = () =>
      client
        .cancelQueries({ queryKey: queryKeys.approvals.all })
        .then(() => client.invalidateQueries({ queryKey: queryKeys.approvals.all }));
    const controller = new AbortController();
    let attempt: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A silent stream is dropped, which ends this attempt and starts the next.
    const liveness = watchLiveness(setLive, () => attempt?.abort());
    const connect = () => {
      attempt = new AbortController();
      readEventStream(
        '/v1/events',
        key,
        (event) => {
          if (event.event === 'approval') void refetchApprovals();
        },
        AbortSignal.any([controller.signal, attempt.signal]),
        () => {
          liveness.beat();
          // Anything that happened while disconnected is fetched again.
          void refetchApprovals();
        },
        liveness.beat,
      )
        .catch(() => undefined)
        .finally(() => {
          liveness.end();
          if (!controller.signal.aborted) timer = setTimeout(connect, RETRY_MS);
        });
    };
    connect();
    return () => {
      controller.abort();
      liveness.end();
      clearTimeout(timer);
    };
  }, [key, client]);
  return live;
}
