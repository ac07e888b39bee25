/**
 * The webview's side of the extension link: `acquireVsCodeApi()` may be called once per page,
 * so it is wrapped here and shared by the request helper and the state helpers.
 */
import type { RpcResults } from '../../src/panels/protocol';

export interface VsCodeApi<S> {
  /** `transfer`: buffers handed over rather than copied (VS Code's webview API takes them since 1.57). */
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  getState(): S | undefined;
  setState(state: S): void;
}

declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

let api: VsCodeApi<unknown> | undefined;

export function vscodeApi<S>(): VsCodeApi<S> {
  api ??= acquireVsCodeApi<unknown>();
  return api as VsCodeApi<S>;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** Request/response over postMessage, matched by a sequence id; `Res` says what each request resolves to. */
export class Rpc<Req extends { method: string }, Res extends RpcResults<Req>> {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly post: (message: { type: 'request'; id: number; request: Req } | { type: 'cancelRequest'; id: number }) => void) {}

  /**
   * `signal`: when it aborts before the answer came, the extension is told to stop the work
   * (`cancelRequest`: it aborts the request, e.g. closes a byte read's connection) and the
   * promise rejects with an AbortError.
   */
  call<R extends Req>(request: R, signal?: AbortSignal): Promise<Res[R['method']]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const abort = () => {
        if (!this.pending.delete(id)) return;
        this.post({ type: 'cancelRequest', id });
        reject(new DOMException('The request was cancelled.', 'AbortError'));
      };
      if (signal?.aborted) {
        reject(new DOMException('The request was cancelled.', 'AbortError'));
        return;
      }
      const done = () => signal?.removeEventListener('abort', abort);
      this.pending.set(id, {
        resolve: (v) => {
          done();
          (resolve as (v: unknown) => void)(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      signal?.addEventListener('abort', abort, { once: true });
      this.post({ type: 'request', id, request });
    });
  }

  /** Feed every incoming message here; returns true when it was a response. */
  handle(message: unknown): boolean {
    if (!message || typeof message !== 'object' || (message as { type?: unknown }).type !== 'response') return false;
    const m = message as { id: number; ok: boolean; result?: unknown; error?: { message?: unknown; status?: unknown } };
    const p = this.pending.get(m.id);
    if (!p) return true;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else {
      const err = new Error(typeof m.error?.message === 'string' ? m.error.message : 'The request failed.');
      (err as Error & { status?: unknown }).status = m.error?.status;
      p.reject(err);
    }
    return true;
  }
}
