/**
 * Delivers a webview's messages (other than request answers) to one handler per type. What a
 * page posts is any value: a page with a bug, or one that was made to misbehave, can send a
 * message of no known type or with fields missing or of the wrong type. Such a message is
 * refused before any handler sees it: logged once per type (a page repeating it does not
 * flood the log) and ignored. A handler that fails is logged; nothing is left as an unhandled
 * rejection. No vscode: unit-tested.
 */
import { isObj } from '../api/shape';
import type { MessageHandlers } from './protocol';

/** Per message type, whether a message's fields are what its handler expects. */
export type FieldChecks<M extends { type: string }> = { [K in M['type']]: (m: Record<string, unknown>) => boolean };

export class MessageRouter<M extends { type: string }> {
  /** The types refused once already (known types, or "unknown"): later ones are not logged. */
  private readonly refused = new Set<string>();

  constructor(
    /** Names the webview in the log, e.g. `map`. */
    private readonly name: string,
    private readonly log: { warn(text: string): void },
    private readonly handlers: Partial<MessageHandlers<M>>,
    private readonly checks: Partial<FieldChecks<M>>,
    /** A failure as the log says it (the extension's `describeError`). */
    private readonly describe: (e: unknown) => string = (e) => (e instanceof Error ? e.message : String(e)),
  ) {}

  /** Handles `raw` as the webview's message, or refuses it; resolves when done, never rejects. */
  async receive(raw: unknown): Promise<void> {
    const type = isObj(raw) && typeof raw.type === 'string' ? raw.type : undefined;
    const known = type !== undefined && Object.hasOwn(this.checks, type) && Object.hasOwn(this.handlers, type);
    if (!known) return this.refuse(undefined);
    const check = this.checks[type as M['type']] as (m: Record<string, unknown>) => boolean;
    if (!check(raw as Record<string, unknown>)) return this.refuse(type);
    const handler = this.handlers[type as M['type']] as (m: unknown) => void | Promise<void>;
    try {
      await handler(raw);
    } catch (e) {
      this.log.warn(`${this.name}: the webview's '${type}' message failed: ${this.describe(e)}`);
    }
  }

  private refuse(type: string | undefined): void {
    const key = type ?? '';
    if (this.refused.has(key)) return;
    this.refused.add(key);
    this.log.warn(
      type === undefined
        ? `${this.name}: ignored a message of no known type from the webview (later ones are not logged)`
        : `${this.name}: ignored a '${type}' message from the webview with missing or wrong fields (later ones are not logged)`,
    );
  }
}
