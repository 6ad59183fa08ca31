// The exact arguments of the MCP tools/call requests read and not yet answered, kept apart from the stdio
// transport that reads them so the fast path (fast-call.ts) and the call handler (call-tool.ts) need not import it.

/** Most tools/call arguments kept unanswered at once; the oldest is forgotten past it (its call is refused). */
const MAX_KEPT = 1000;

/**
 * The exact arguments of the tools/call requests read and not yet taken, by request id (the plain copy's id,
 * as the SDK names the request). Requests that share an id are taken in the order they were read.
 */
export class ExactArguments {
  private readonly byId = new Map<string | number, { value: unknown }[]>();
  private kept = 0;
  keep(id: string | number, value: unknown): void {
    if (this.kept >= MAX_KEPT) this.forgetOldest();
    const queue = this.byId.get(id);
    if (queue) queue.push({ value });
    else this.byId.set(id, [{ value }]);
    this.kept++;
  }
  /** The arguments the reader read for a request (`{value: undefined}` when none were sent), or undefined when none was kept; forgets them. */
  take(id: string | number): { value: unknown } | undefined {
    const queue = this.byId.get(id);
    const first = queue?.shift();
    if (queue?.length === 0) this.byId.delete(id);
    if (first) this.kept--;
    return first;
  }
  /**
   * The arguments kept last for `id` (the message just read), forgotten: a call the fast path answers takes its own
   * as it is read, so a call the SDK answers later under the same id never gets them, nor they its.
   */
  takeNewest(id: string | number): { value: unknown } | undefined {
    const queue = this.byId.get(id);
    const last = queue?.pop();
    if (queue?.length === 0) this.byId.delete(id);
    if (last) this.kept--;
    return last;
  }
  private forgetOldest(): void {
    // A request the SDK refused never asks for its arguments; the map must not grow with them.
    const [id] = this.byId.keys();
    if (id !== undefined) this.take(id);
  }
}
