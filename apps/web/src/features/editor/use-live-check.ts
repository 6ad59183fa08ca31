// The live check of the text being edited: run in a module worker, newest text wins; on the main thread
// only when no worker can start (an old browser, a strict content policy).
import type { LintCatalogue } from '@tollgate/engine';
import { useEffect, useRef, useState } from 'react';
import type { DocumentCheck } from './check-document.ts';
import type { CheckReply, CheckRequest } from './check-protocol.ts';
import { type CheckQueue, createCheckQueue } from './check-queue.ts';

export interface LiveCheck {
  /** The check of the newest text checked so far; undefined until the first one returns. */
  check: DocumentCheck | undefined;
  /** Why the last check failed, when it did. */
  failure: string | null;
  /** The number of the newest text, and of the text `check` belongs to: equal when the check is current. */
  textVersion: number;
  checkedVersion: number;
}

/**
 * Checks `text` as document `id` whenever either changes.
 *
 * @example
 * const live = useLiveCheck(id, text, catalogue);
 * <div data-checked-version={live.checkedVersion}>{live.check?.summary ?? 'Checking…'}</div>
 */
export function useLiveCheck(id: string, text: string, catalogue: LintCatalogue | undefined): LiveCheck {
  const [result, setResult] = useState<{ check?: DocumentCheck; failure: string | null; checkedVersion: number }>({
    failure: null,
    checkedVersion: 0,
  });
  const [textVersion, setTextVersion] = useState(0);
  const queue = useRef<CheckQueue | null>(null);

  useEffect(() => {
    const take = (reply: CheckReply) => {
      const fresh = queue.current?.receive(reply);
      if (fresh === undefined) return;
      setResult(
        'check' in fresh ? { check: fresh.check, failure: null, checkedVersion: fresh.seq } : (r) => ({ ...r, failure: fresh.failure }),
      );
    };
    const checker = startChecker(take);
    queue.current = createCheckQueue(checker.send);
    return () => {
      queue.current?.dispose();
      queue.current = null;
      checker.stop();
    };
  }, []);

  useEffect(() => {
    const seq = queue.current?.submit(id, text, catalogue ?? null);
    if (seq !== undefined) setTextVersion(seq);
  }, [id, text, catalogue]);

  return { check: result.check, failure: result.failure, textVersion, checkedVersion: result.checkedVersion };
}

interface Checker {
  send(request: CheckRequest): void;
  stop(): void;
}

/** The worker, or the same handler on the main thread if the worker cannot be made or fails to load. */
function startChecker(onReply: (reply: CheckReply) => void): Checker {
  let fallback: Promise<(request: CheckRequest) => CheckReply> | undefined;
  let unanswered: CheckRequest | undefined;
  let stopped = false;
  // The worker kept the catalogue it was sent; a handler started later is handed it with its first request.
  let catalogue: CheckRequest['catalogue'];
  const local = (request: CheckRequest) => {
    const first = fallback === undefined;
    fallback ??= import('./check-protocol.ts').then((m) => m.createCheckHandler());
    const sent = first && request.catalogue === undefined ? { ...request, catalogue } : request;
    fallback.then((answer) => {
      if (!stopped) onReply(answer(sent));
    });
  };
  let worker: Worker | undefined;
  try {
    worker = new Worker(new URL('./check-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    worker = undefined;
  }
  if (worker !== undefined) {
    worker.onmessage = (event: MessageEvent<CheckReply>) => {
      unanswered = undefined;
      onReply(event.data);
    };
    // A worker that fails to load reports an error event; its question goes to the main thread instead.
    worker.onerror = (event) => {
      event.preventDefault();
      worker?.terminate();
      worker = undefined;
      if (unanswered !== undefined) local(unanswered);
    };
  }
  return {
    send(request) {
      if (request.catalogue !== undefined) catalogue = request.catalogue;
      if (worker === undefined) return local(request);
      unanswered = request;
      worker.postMessage(request);
    },
    stop() {
      stopped = true;
      worker?.terminate();
    },
  };
}
