import vscode = require('vscode');
import { l10n } from 'vscode';
import { collect, type Aoi, type EoClient } from '../../api';
import { km2 } from '../../format';
import type { ExtensionServices } from '../../services';
import { pickStepVia } from '../../ui/prompts';
import { isBack } from '../../ui/stepPrompts';
import { withProgress } from '../../ui/progress';

/** Runs `work` with a notification-area progress: every network wait is visible. */
export function busy<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return withProgress({ location: vscode.ProgressLocation.Notification, title }, work);
}

export interface AoiItem extends vscode.QuickPickItem {
  aoi: Aoi;
}

/**
 * Asks for one of the caller's AOIs; `undefined` when cancelled or there are none (said).
 * `position` numbers it as a step of a longer flow. `unfit` says why an AOI cannot serve (the
 * block's bands it lacks): those are listed last, under a heading, each with its reason.
 */
export async function pickAoi(
  services: ExtensionServices,
  client: EoClient,
  title: string,
  position?: { step: number; totalSteps: number },
  unfit?: (aoi: Aoi) => string | undefined,
): Promise<Aoi | undefined> {
  const aois = await busy(l10n.t('Loading AOIs…'), () => collect(client.aois.iterate({}, { pageSize: 100, cap: 1000 })));
  if (aois.length === 0) {
    await services.ui.message('info', l10n.t('You have no AOIs yet: create one first.'), {});
    return undefined;
  }
  const item = (aoi: Aoi, why?: string): AoiItem => ({
    label: aoi.name,
    description: why ?? `${aoi.satellite_id} · ${km2(aoi.area_in_sq_m)}`,
    ...(why ? { iconPath: new vscode.ThemeIcon('warning') } : {}),
    detail: aoi.description || undefined,
    aoi,
  });
  const judged = aois.map((aoi) => ({ aoi, why: unfit?.(aoi) }));
  const fit = judged.filter((j) => !j.why).map((j) => item(j.aoi));
  const lacking = judged.filter((j) => j.why).map((j) => item(j.aoi, j.why));
  const items: (vscode.QuickPickItem & { aoi?: Aoi })[] = lacking.length
    ? [...fit, { label: l10n.t('Lacking what the block needs'), kind: vscode.QuickPickItemKind.Separator }, ...lacking]
    : fit;
  const options = { title, placeHolder: l10n.t('Pick the AOI'), matchOnDescription: true, ignoreFocusOut: true };
  const picked = position ? await pickStepVia(services.ui, items, { ...options, ...position, canGoBack: false }) : await services.ui.pick(items, options);
  return picked && !isBack(picked) ? picked.aoi : undefined;
}
