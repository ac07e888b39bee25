/**
 * One definition per message between the extension and a webview: a table whose rows name each
 * message (its `type`), its payload's type and its runtime check. Both ends import the table:
 * the extension host builds its handler table from it (`Handlers<typeof TABLE>`, one handler
 * per row, checked at compile time) and so does the page, and both hand what arrives to a
 * `Dispatcher`, which refuses a message of no known type or whose fields fail the row's check
 * before any handler sees it. Pure: bundled into the webviews and unit-tested.
 *
 * A page is anything that can post to the extension (a page with a bug, or one made to
 * misbehave), so the rows of messages from a page check every field a handler reads. Messages
 * from the extension are built by typed code; their rows check what a page handler would trip
 * on (ids, lists).
 */
import { isObj } from '../../api/shape';

/** A message as it arrived: any object with a `type`. */
export type Fields = Record<string, unknown>;

/** One message of a table: `P` is its payload (its fields besides `type`), `check` what the receiver requires of them. */
export interface Row<P extends object> {
  readonly check: (m: Fields) => boolean;
  /** The payload's type, for the compiler only (never set). */
  readonly payload?: P;
}

/** A row of payload `P`; without a check, only its `type` is required. */
export function row<P extends object = Record<never, never>>(check: (m: Fields) => boolean = () => true): Row<P> {
  return { check };
}

export type Table = { readonly [type: string]: Row<object> };

type PayloadOf<R> = R extends Row<infer P> ? P : never;

/** The message of row `K`: its `type` and its payload. */
export type MessageOf<T extends Table, K extends keyof T> = K extends string ? { type: K } & PayloadOf<T[K]> : never;

/** Every message of a table, as a union discriminated by `type`. */
export type MessageIn<T extends Table> = MessageOf<T, keyof T>;

/** One handler per row of a table, each given that row's message (its fields checked). */
export type Handlers<T extends Table> = { [K in keyof T & string]: (message: MessageOf<T, K>) => void | Promise<void> };

// ---------------------------------------------------------------- checks the rows share

/** A request or message id: a safe integer. */
export const isId = (v: unknown): v is number => Number.isSafeInteger(v);
/** A count of done or total steps: finite, not negative. */
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
/**
 * A reply to the request its `id` field names (`requestId` unless said): `ok` with a result the
 * `result` check accepts, or not with the error in words.
 */
export function isReply(m: Fields, result: (m: Fields) => boolean, id = 'requestId'): boolean {
  return isId(m[id]) && (m.ok === true ? result(m) : m.ok === false && typeof m.error === 'string');
}
/** Bytes as VS Code hands them over (an ArrayBuffer, or a typed array). */
export const isBytes = (v: unknown): boolean => v instanceof ArrayBuffer || v instanceof Uint8Array;

// ---------------------------------------------------------------- dispatching

/** What a dispatcher says of a message it did not hand to a handler, or whose handler failed. */
export interface DispatchReport {
  /** `type` undefined: no known type (or no `type` at all); else the row's check failed. */
  refused(type: string | undefined): void;
  failed(type: string, error: unknown): void;
}

/**
 * Hands each arriving message to the handler of its row, or refuses it (unknown type, or the
 * row's check fails). Resolves once the handler is done, never rejects: a failing handler is
 * reported, not left as an unhandled rejection.
 */
export class Dispatcher<T extends Table> {
  constructor(
    private readonly table: T,
    private readonly handlers: Handlers<T>,
    private readonly report: DispatchReport,
  ) {}

  async receive(raw: unknown): Promise<void> {
    const type = isObj(raw) && typeof raw.type === 'string' ? raw.type : undefined;
    if (type === undefined || !Object.hasOwn(this.table, type) || !Object.hasOwn(this.handlers, type)) return this.report.refused(undefined);
    if (!this.table[type].check(raw as Fields)) return this.report.refused(type);
    const handler = this.handlers[type as keyof T & string] as (m: unknown) => void | Promise<void>;
    try {
      await handler(raw);
    } catch (e) {
      this.report.failed(type, e);
    }
  }
}

/**
 * The extension host's report: each refusal logged once per type (every message of no known
 * type shares one line), so a page repeating it does not flood the log; each failure logged.
 */
export function logOnce(name: string, log: { warn(text: string): void }, describe: (e: unknown) => string): DispatchReport {
  const refused = new Set<string>();
  return {
    refused(type) {
      const key = type ?? '';
      if (refused.has(key)) return;
      refused.add(key);
      log.warn(
        type === undefined
          ? `${name}: ignored a message of no known type from the webview (later ones are not logged)`
          : `${name}: ignored a '${type}' message from the webview with missing or wrong fields (later ones are not logged)`,
      );
    },
    failed(type, e) {
      log.warn(`${name}: the webview's '${type}' message failed: ${describe(e)}`);
    },
  };
}
