/**
 * A page's requests and their answers: the page posts `request {id, request}` and gets a
 * `response` of the same id, from one handler per request `method` (`RpcHandlers`). A
 * `cancelRequest` aborts a request still being answered (a removed layer's byte read closes
 * its connection). An answer is sent at once, ready or not: the page that asked is waiting.
 */
import { l10n } from 'vscode';
import { isCancellation } from '../../api/errors';
import { describeError } from '../../ui/showError';
import { responseError } from '../host';
import type { ResponseMessage, RpcHandlers, RpcResults } from '../protocol';

export class RequestServer<Req extends { method: string }, Res extends RpcResults<Req>> {
  /** Requests being answered, by id. */
  private readonly inflight = new Map<number, AbortController>();

  constructor(
    private readonly o: {
      /** Names the page in the log, e.g. `map`. */
      name: string;
      log: { warn(text: string): void };
      handlers: RpcHandlers<Req, Res>;
      send(m: ResponseMessage): void;
      /** Requests whose failures the log already has (a byte read is a request line of its own). */
      quiet?: (method: Req['method']) => boolean;
    },
  ) {}

  async answer(id: number, request: Req): Promise<void> {
    const abort = new AbortController();
    this.inflight.set(id, abort);
    try {
      const handler = Object.hasOwn(this.o.handlers, request.method)
        ? (this.o.handlers[request.method as Req['method']] as (r: Req, signal: AbortSignal) => Promise<unknown>)
        : undefined;
      if (!handler) throw new Error(l10n.t('Unknown request.'));
      const result = await handler(request, abort.signal);
      this.o.send({ type: 'response', id, ok: true, result });
    } catch (e) {
      if (!isCancellation(e) && !abort.signal.aborted && !this.o.quiet?.(request.method))
        this.o.log.warn(`${this.o.name}: ${request.method} failed: ${describeError(e)}`);
      if (!abort.signal.aborted) this.o.send({ type: 'response', id, ok: false, error: responseError(e) });
    } finally {
      this.inflight.delete(id);
    }
  }

  cancel(id: number): void {
    this.inflight.get(id)?.abort();
  }
}
