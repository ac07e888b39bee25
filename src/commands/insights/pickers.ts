import vscode = require('vscode');
import { collect, type Aoi, type EoClient } from '../../api';
import { km2 } from '../../format';
import type { ExtensionServices } from '../../services';

/** Runs `work` with a notification-area progress: every network wait is visible. */
export function busy<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, work);
}

export interface AoiItem extends vscode.QuickPickItem {
  aoi: Aoi;
}

/** Asks for one of the caller's AOIs; `undefined` when cancelled or there are none (said). */
export async function pickAoi(services: ExtensionServices, client: EoClient, title: string): Promise<Aoi | undefined> {
  const aois = await busy('Loading AOIs…', () => collect(client.aois.iterate({}, { pageSize: 100, cap: 1000 })));
  if (aois.length === 0) {
    await services.ui.message('info', 'You have no AOIs yet: create one first.', {});
    return undefined;
  }
  const items: AoiItem[] = aois.map((aoi) => ({
    label: aoi.name,
    description: `${aoi.satellite_id} · ${km2(aoi.area_in_sq_m)}`,
    detail: aoi.description || undefined,
    aoi,
  }));
  const picked = await services.ui.pick(items, { title, placeHolder: 'Pick the AOI', matchOnDescription: true, ignoreFocusOut: true });
  return picked?.aoi;
}
