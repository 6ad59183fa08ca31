// GET /v1/events, live: approval events invalidate every ['approvals'] query; reconnects after a drop.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { readEventStream } from '../../../lib/event-stream.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const RETRY_MS = 2000;

/** Subscribes while mounted; answers whether the stream is connected. */
export function useApprovalEvents(key: string): boolean {
  const client = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      readEventStream(
        '/v1/events',
        key,
        (event) => {
          if (event.event === 'approval') void client.invalidateQueries({ queryKey: queryKeys.approvals.all });
        },
        controller.signal,
        () => {
          setLive(true);
          // Anything that happened while disconnected is fetched again.
          void client.invalidateQueries({ queryKey: queryKeys.approvals.all });
        },
      )
        .catch(() => undefined)
        .finally(() => {
          setLive(false);
          if (!controller.signal.aborted) timer = setTimeout(connect, RETRY_MS);
        });
    };
    connect();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, client]);
  return live;
}
