import vscode = require('vscode');
import { l10n } from 'vscode';
import { collect, type Aoi, type EoClient } from '../../api';
import { km2 } from '../../format';
import type { ExtensionServices } from '../../services';
import { pickStepVia } from '../../ui/prompts';
import { isBack } from '../../ui/stepPrompts';

/** Runs `work` with a notification-area progress: every network wait is visible. */
export function busy<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, work);
}

export interface AoiItem extends vscode.QuickPickItem {
  aoi: Aoi;
}

/**
 * Asks for one of the caller's AOIs; `undefined` when cancelled or there are none (said).
 * `position` numbers it as a step of a longer flow.
 */
export async function pickAoi(
  services: ExtensionServices,
  client: EoClient,
  title: string,
  position?: { step: number; totalSteps: number },
): Promise<Aoi | undefined> {
  const aois = await busy(l10n.t('Loading AOIs…'), () => collect(client.aois.iterate({}, { pageSize: 100, cap: 1000 })));
  if (aois.length === 0) {
    await services.ui.message('info', l10n.t('You have no AOIs yet: create one first.'), {});
    return undefined;
  }
  const items: AoiItem[] = aois.map((aoi) => ({
    label: aoi.name,
    description: `${aoi.satellite_id} · ${km2(aoi.area_in_sq_m)}`,
    detail: aoi.description || undefined,
    aoi,
  }));
  const options = { title, placeHolder: l10n.t('Pick the AOI'), matchOnDescription: true, ignoreFocusOut: true };
  const picked = position ? await pickStepVia(services.ui, items, { ...options, ...position, canGoBack: false }) : await services.ui.pick(items, options);
  return picked && !isBack(picked) ? picked.aoi : undefined;
}
