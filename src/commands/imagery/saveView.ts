/**
 * "Save View to GeoTIFF…" and "Save View to PNG": the map webview says which window of which
 * level (a plan the extension host reads and encodes, or, for a compression only the page
 * decodes, the encoded bytes; src/panels/imagery/clipChannel.ts); this side asks which layer, bands and
 * overview, offers a file name that names the scene and its date, shows progress with Cancel,
 * and writes the bytes atomically (a temporary file beside the target, then a rename).
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { metres } from '../../format';
import { safeFileName } from '../../fileNames';
import { inStep } from '../../ui/showError';
import { ClipCancelled } from '../../panels/imagery/clipChannel';
import type { CommandServices } from '../services';
import type { ClipLayerInfo, ClipRequest, ClipResult } from '../../panels/imagery/clipMessages';
import { withProgress } from '../../ui/progress';

/** A file name from the layer's title and date, without ids or characters file systems refuse. */
export function clipFileName(layer: { title: string; date?: string }, ext: string): string {
  let base = layer.title.replace(/\s+\d{8}T\d{6}Z?$/, '');
  if (layer.date && !base.includes(layer.date)) base = `${base} ${layer.date}`;
  return safeFileName(`${base.trim() || 'imagery'} clip`, `.${ext}`);
}

function mb(bytes: number): string {
  return bytes >= 1e6 ? l10n.t('{0} MB', (bytes / 1e6).toFixed(1)) : l10n.t('{0} KB', Math.max(1, Math.round(bytes / 1e3)));
}

export async function writeAtomically(target: vscode.Uri, bytes: Uint8Array): Promise<void> {
  const tmp = target.with({ path: `${target.path}.${Date.now().toString(36)}.part` });
  try {
    await vscode.workspace.fs.writeFile(tmp, bytes);
    await vscode.workspace.fs.rename(tmp, target, { overwrite: true });
  } catch (e) {
    // Recovers nothing but the disk: the temporary file goes (a failure to delete it changes nothing); rethrown.
    await Promise.resolve(vscode.workspace.fs.delete(tmp)).catch(() => undefined);
    throw e;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, text: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(text)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

async function chooseGeoTiff(services: CommandServices, layers: ClipLayerInfo[]): Promise<{ layer: ClipLayerInfo; request: ClipRequest } | undefined> {
  const ui = services.ui;
  const layer =
    layers.length === 1
      ? layers[0]
      : (
          await ui.pick(
            layers.map((l) => ({ label: l.title, description: l.date, layer: l })),
            {
              title: l10n.t('Save View to GeoTIFF: which layer?'),
              placeHolder: l10n.t('The imagery layer to save'),
            },
          )
        )?.layer;
  if (!layer) return undefined;
  let bands = layer.shown;
  if (layer.bands.length > 1) {
    const shown = new Set(layer.shown);
    const picked = await ui.pickMany(
      layer.bands.map((b) => ({ label: b, picked: shown.has(b) })),
      {
        title: l10n.t('Save View to GeoTIFF: bands'),
        placeHolder: l10n.t('Bands to save (the ones drawn are selected)'),
      },
    );
    if (!picked) return undefined;
    if (!picked.length) {
      await ui.message('warning', l10n.t('Pick at least one band to save.'), {});
      return undefined;
    }
    bands = picked.map((p) => p.label);
  }
  let mask = false;
  if (layer.aoiLevels) {
    const extent = await ui.pick(
      [
        { label: l10n.t('The view'), description: l10n.t('Everything in the view'), mask: false },
        { label: l10n.t('The AOI'), description: l10n.t("The AOI's polygon; pixels outside it become no-data"), mask: true },
      ],
      { title: l10n.t('Save View to GeoTIFF: extent') },
    );
    if (!extent) return undefined;
    mask = extent.mask;
  }
  const perBand = (l: ClipLayerInfo['levels'][number]) => l.bytes / Math.max(1, layer.bands.length);
  // the sizes of what will be saved: the AOI's window for a masked clip, else the view's
  const levels = (mask && layer.aoiLevels) || layer.levels;
  const levelItems = levels.map((l) => ({
    label: l.level === 0 ? l10n.t('Full resolution, {0}', metres(l.pixelSize)) : l10n.t('Overview {0}, {1}', l.level, metres(l.pixelSize)),
    description: l10n.t('{0} × {1} pixels, about {2}', l.width, l.height, mb(perBand(l) * bands.length)),
    detail: l.level === layer.drawnLevel ? l10n.t('The resolution the map shows now') : undefined,
    level: l.level,
  }));
  const drawn = levelItems.find((i) => i.level === layer.drawnLevel);
  const ordered = drawn ? [drawn, ...levelItems.filter((i) => i !== drawn)] : levelItems;
  const level =
    ordered.length === 1
      ? ordered[0]
      : await ui.pick(ordered, { title: l10n.t('Save View to GeoTIFF: resolution'), placeHolder: l10n.t('The overview to save') });
  if (!level) return undefined;
  return { layer, request: { format: 'geotiff', id: layer.id, bands, level: level.level, mask } };
}

export async function saveView(services: CommandServices, format: 'geotiff' | 'png'): Promise<vscode.Uri | undefined> {
  const panel = services.panels.currentMap();
  const title = format === 'geotiff' ? l10n.t('Save View to GeoTIFF') : l10n.t('Save View to PNG');
  if (!panel) {
    await services.ui.message('info', l10n.t('{0}: open the map and show imagery on it first.', title), {});
    return undefined;
  }
  // in view, but the keyboard stays with the pickers that follow
  panel.reveal(true);
  // A failure reads "<title>: <reason>" (the map did not answer, a read or a write failed).
  const failed = (reason: string): string => l10n.t('{0}: {1}', title, reason);
  const layers = await inStep(failed, () => withTimeout(panel.clips.info(), 20_000, l10n.t('The map did not answer; show imagery on it and try again.')));
  if (!layers.length) {
    await services.ui.message('info', l10n.t('{0}: no imagery layer is in the view. Show imagery and pan to it first.', title), {});
    return undefined;
  }
  const choice = format === 'geotiff' ? await chooseGeoTiff(services, layers) : { layer: layers[0], request: { format: 'png' } as ClipRequest };
  if (!choice) return undefined;
  const ext = format === 'geotiff' ? 'tif' : 'png';
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = clipFileName(choice.layer, ext);
  const ask = services.ui.saveDialog?.bind(services.ui) ?? vscode.window.showSaveDialog;
  const target = await ask({
    title,
    saveLabel: l10n.t('Save'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: format === 'geotiff' ? { [l10n.t('GeoTIFF')]: ['tif', 'tiff'] } : { [l10n.t('PNG image')]: ['png'] },
  });
  if (!target) return undefined;
  const result = await inStep(failed, () =>
    withProgress(
      { location: vscode.ProgressLocation.Notification, title: l10n.t('{0}: {1}', title, choice.layer.title), cancellable: true },
      async (progress, token): Promise<ClipResult> => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let last = 0;
        const r = await panel.clips.clip(choice.request, {
          signal: abort.signal,
          onProgress: (done, total) => {
            const pct = (100 * done) / Math.max(1, total);
            progress.report({ increment: pct - last, message: l10n.t('reading tiles, {0} %', Math.round(pct)) });
            last = pct;
          },
        });
        if (token.isCancellationRequested) throw new ClipCancelled();
        progress.report({ message: l10n.t('writing {0}', mb(r.bytes.byteLength)) });
        const bytes = r.bytes instanceof Uint8Array ? r.bytes : new Uint8Array(r.bytes);
        await writeAtomically(target, bytes);
        return r;
      },
    ),
  );
  services.log.info(
    `saveView: wrote ${format} ${result.width}×${result.height} (${result.bytes.byteLength} bytes${result.fetchedBytes !== undefined ? `, read ${result.fetchedBytes} of tiles ${result.tileBytes}` : ''})`,
  );
  const reveal = l10n.t('Reveal in File Explorer');
  void services.ui
    .message('info', l10n.t('Saved {0} ({1} × {2} pixels).', vscode.workspace.asRelativePath(target), result.width, result.height), {}, reveal)
    .then((b) => {
      if (b === reveal) void vscode.commands.executeCommand('revealFileInOS', target);
    });
  return target;
}
