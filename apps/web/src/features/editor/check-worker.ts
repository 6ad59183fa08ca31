// The editor's checks off the main thread: a module worker that answers each CheckRequest with its check,
// so compiling a 200-rule sheet never blocks typing (docs/console.md, "Live checks off the main thread").
import { type CheckReply, type CheckRequest, createCheckHandler } from './check-protocol.ts';

// The console compiles against the DOM lib; a worker's global scope needs only these two members.
interface WorkerScope {
  onmessage: ((event: MessageEvent<CheckRequest>) => void) | null;
  postMessage(reply: CheckReply): void;
}

const scope = self as unknown as WorkerScope;
const answer = createCheckHandler();
scope.onmessage = (event) => scope.postMessage(answer(event.data));
