import type { ExplorerApi } from '../explorer';
import type { Panels } from '../panels';
import type { ExtensionServices } from '../services';
import type { Watcher } from '../watch/watcher';

/** What commands receive: the services, plus the watcher, the sidebar and the panels built on them before the commands. */
export interface CommandServices extends ExtensionServices {
  readonly explorer: ExplorerApi;
  readonly panels: Panels;
  /** Follows what is pending (orders, deliveries, downloads, insight runs) in the background. */
  readonly watcher: Watcher;
}
