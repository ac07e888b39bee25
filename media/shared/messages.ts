/**
 * The page's end of its message table: the same dispatcher as the extension's
 * (src/panels/webview/messages.ts) hands each message from the extension to the handler of its
 * row, one handler per row (the compiler holds the table whole). A message of no row is
 * ignored (other listeners of the page may have posted it); one whose fields fail its row's
 * check is a bug of ours, said on the console, as is a handler that fails (the webview tests
 * see both).
 */
import { Dispatcher, type Handlers, type Table } from '../../src/panels/webview/messages';

export function listen<T extends Table>(table: T, handlers: Handlers<T>): Dispatcher<T> {
  const dispatcher = new Dispatcher(table, handlers, {
    refused: (type) => {
      if (type !== undefined) console.warn(`ignored a '${type}' message with missing or wrong fields`);
    },
    failed: (type, e) => console.error(`the '${type}' message failed: ${e instanceof Error ? e.message : String(e)}`),
  });
  window.addEventListener('message', (e: MessageEvent) => void dispatcher.receive(e.data));
  return dispatcher;
}
