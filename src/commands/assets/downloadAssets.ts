/**
 * "Download…" for AOI assets: an asset row (or several selected), or an AOI row (then the
 * assets are picked). One request (`POST /v0/aois/{aoi_id}/downloads`, never sent twice),
 * followed with growing waits in a cancellable notification until the service has the file,
 * then saved where the person says (save dialog, a name made of the AOI's and the asset's
 * names) through a temporary file renamed only when complete.
 */
import { homedir } from 'node:os';
import vscode = require('vscode');
import { aoiDownloadPhase, isRequestError, type Aoi, type AoiDownload, type Asset, type EoClient } from '../../api';
import { safeFileName } from '../../fileNames';
import { enumLabel } from '../../format';
import { isWebUrl } from '../../panels/protocol';
import { failedText, inStep } from '../../ui/showError';
import { assetArg } from '../args/shapes';
import { downloadToFile, freshLink } from '../catalog/downloadFile';
import { downloadWithResume } from '../catalog/downloadProgress';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { withProgress } from '../../ui/progress';

/** Polling: first read after 0.3 s, waits growing to 3 s, give up after 30 min. */
const FOLLOW = { initialDelayMs: 300, maxDelayMs: 3_000, timeoutMs: 30 * 60_000 } as const;

export interface AssetDownloadOutcome {
  download: AoiDownload;
  /** The saved file, when one was saved. */
  file?: string;
}

/** The suggested name: the AOI's and the asset's names, safe and short enough (src/fileNames.ts). */
export function assetFileName(aoiName: string, assets: readonly Pick<Asset, 'name' | 'date' | 'asset_type'>[]): string {
  const aoi = aoiName.trim() || 'AOI';
  if (assets.length === 1) {
    const a = assets[0];
    return safeFileName(`${aoi} - ${(a.name || `${a.asset_type} ${a.date ?? ''}`).trim() || 'asset'}`, '.tif');
  }
  return safeFileName(`${aoi} - ${assets.length} assets`, '.zip');
}

function assetLabel(a: Asset): string {
  return a.name || `${enumLabel(a.asset_type)} ${(a.date ?? '').slice(0, 10)}`.trim();
}

async function pickAssets(services: CommandServices, client: EoClient, aoiId: string, aoiName: string): Promise<Asset[] | undefined> {
  const all: Asset[] = [];
  for await (const a of client.aois.iterateAssets(aoiId, { pageSize: 100 })) {
    all.push(a);
    if (all.length >= 500) break;
  }
  if (!all.length) {
    await services.ui.message('info', vscode.l10n.t('{0} has no assets yet.', aoiName), {});
    return undefined;
  }
  const picked = await services.ui.pickMany(
    all
      .sort((x, y) => (y.date ?? '').localeCompare(x.date ?? ''))
      .map((a) => ({
        label: assetLabel(a),
        description: [(a.date ?? '').slice(0, 10), enumLabel(a.asset_type), vscode.l10n.t('{0} bands', a.band_list?.length ?? 0)].join(' · '),
        asset: a,
      })),
    { title: vscode.l10n.t('Download Assets of {0}', aoiName), placeHolder: vscode.l10n.t('Assets to download (one file, or a ZIP of several)') },
  );
  return picked?.length ? picked.map((p) => p.asset) : undefined;
}

/**
 * `given`: the rows it was run on (asset rows, the selection first) and the AOI above them
 * (or the AOI row itself, whose assets are then picked).
 */
export async function downloadAssets(services: CommandServices, given: { rows: unknown[]; aoi: Aoi | undefined }): Promise<AssetDownloadOutcome | undefined> {
  const client = await services.connection.getClient();
  let assets = given.rows.map(assetArg).filter((a): a is Asset => a !== undefined);
  let aoiName = given.aoi?.name;
  const aoiId = assets[0]?.aoi_id ?? given.aoi?.aoi_id;
  if (!aoiId) {
    await services.ui.message('warning', vscode.l10n.t('Pick an AOI or one of its assets in the Projects view to download assets.'), {});
    return undefined;
  }
  if (assets.some((a) => a.aoi_id !== aoiId)) {
    await services.ui.message('error', vscode.l10n.t('Select assets of one AOI: a download names the assets of a single AOI.'), {});
    return undefined;
  }
  try {
    aoiName ??= (await client.aois.get(aoiId)).name;
  } catch (err) {
    // Recovers from a refused read of the AOI (its name only names the file): "AOI" stands in.
    if (!isRequestError(err)) throw err;
  }
  const aoiLabel = aoiName || vscode.l10n.t('AOI');
  if (!assets.length) {
    const picked = await pickAssets(services, client, aoiId, aoiLabel);
    if (!picked) return undefined;
    assets = picked;
  }
  assets = [...new Map(assets.map((a) => [a.id, a])).values()];
  const what = assets.length === 1 ? vscode.l10n.t('{0} of {1}', assetLabel(assets[0]), aoiLabel) : vscode.l10n.t('{0} assets of {1}', assets.length, aoiLabel);

  const created = await inStep(
    (reason, err) =>
      isRequestError(err) ? vscode.l10n.t('The service refused the download of {0}: {1}', what, reason) : failedText(vscode.l10n.t('Download Assets'), reason),
    () => client.aoiDownloads.create(aoiId, { asset_ids: assets.map((a) => a.id) }),
  );
  services.connection.reportSuccess();
  services.log.info(`Requested download ${created.download_id} of ${assets.length} asset(s) of AOI ${aoiId}`);

  const ready = await inStep(vscode.l10n.t('Preparing the download of {0}', what), () =>
    withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Preparing the download of {0}', what), cancellable: true },
      (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        progress.report({ message: enumLabel(created.status.toLowerCase()) });
        if (aoiDownloadPhase(created.status) !== 'pending') return Promise.resolve(created);
        return client.aoiDownloads.waitUntilDone(aoiId, created.download_id, {
          ...FOLLOW,
          signal: ac.signal,
          onProgress: (d) => progress.report({ message: enumLabel(d.status.toLowerCase()) }),
        });
      },
    ),
  );
  if (aoiDownloadPhase(ready.status) !== 'ready' || !ready.signed_url) {
    await services.ui.message(
      'error',
      ready.signed_url || aoiDownloadPhase(ready.status) !== 'ready'
        ? vscode.l10n.t('The service could not prepare the download of {0} (status: {1}). Request it again later.', what, enumLabel(ready.status.toLowerCase()))
        : vscode.l10n.t('The service says the download of {0} is ready but sent no link. Request it again later.', what),
      {},
    );
    return { download: ready };
  }
  // the link comes from the server: only a web link may reach the file writer
  if (!isWebUrl(ready.signed_url)) {
    services.log.warn(`Download ${ready.download_id}: the service sent a link that is not http(s); it was not used.`);
    await services.ui.message(
      'error',
      vscode.l10n.t(
        'The download of {0} is ready, but the service sent a link that is not an http(s) address, so it was not used. Request it again, or report this to the service.',
        what,
      ),
      {},
    );
    return { download: ready };
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
  const name = assetFileName(aoiLabel, assets);
  const zip = name.endsWith('.zip');
  const uri = await services.ui.saveDialog?.({
    title: vscode.l10n.t('Save {0}', what),
    saveLabel: vscode.l10n.t('Save Download'),
    defaultUri: vscode.Uri.joinPath(folder, name),
    filters: zip ? { [vscode.l10n.t('ZIP archive')]: ['zip'] } : { [vscode.l10n.t('GeoTIFF')]: ['tif', 'tiff'] },
  });
  if (!uri) return { download: ready };
  const signedUrl = ready.signed_url;
  const file = await downloadWithResume(services, what, (signal, onProgress, resume) =>
    downloadToFile(signedUrl, uri.fsPath, {
      signal,
      resume,
      otherHosts: services.connection.otherHosts,
      onProgress,
      // The download record gives a fresh link when its link expired.
      renewLink: freshLink(async () => (await client.aoiDownloads.get(aoiId, ready.download_id)).signed_url),
    }),
  );
  return file === undefined ? { download: ready } : { download: ready, file };
}

/** Each download is a POST that makes a package on the service: never sent again by Retry. */
export function assetCommands(services: CommandServices): CommandTable {
  return {
    downloadAssets: { action: vscode.l10n.t('Download Assets'), retry: 'never', run: (given) => downloadAssets(services, given) },
  };
}
