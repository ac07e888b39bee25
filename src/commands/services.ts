import type { ExplorerApi } from '../explorer';
import type { Panels } from '../panels';
import type { ExtensionServices } from '../services';

/** What commands receive: the services, plus the sidebar and the panels built on them before the commands. */
export interface CommandServices extends ExtensionServices {
  readonly explorer: ExplorerApi;
  readonly panels: Panels;
}
