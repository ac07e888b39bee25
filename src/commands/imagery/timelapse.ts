/**
 * "Export Timelapse…": an AOI's dated mosaics (its row, or an AOI picked from the palette) or
 * the time slider's dates on the map, as an animated GIF or a WebM video. This side asks the
 * format, the frame size and rate and the file; the map webview draws each date as the time
 * slider does (media/map/imagery/timelapse.ts), with the date and the AOI's outline on it, and
 * encodes the frames; the bytes come back here and are written with workspace.fs.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Aoi } from '../../api/records';
import { geometryBbox } from '../../geo/bbox';
import { safeFileName } from '../../fileNames';
import type { TimeFrame } from '../../panels/imagery/protocol';
import type { MapView } from '../../panels/mapView';
import { aoiFeature } from '../../panels/mapData';
import { inStep } from '../../ui/showError';
import type { CommandServices } from '../services';
import { pickAoi } from '../insights/pickers';
import { aoiFrames } from './dated';
import { writeAtomically } from './saveView';
import type { TimelapseRequest, TimelapseResult } from '../../panels/imagery/timelapseMessages';
import { withProgress } from '../../ui/progress';

/** Frame sizes offered, in pixels (even, as VP8/VP9 need). */
export const TIMELAPSE_SIZES: readonly [number, number][] = [
  [480, 480],
  [720, 720],
  [640, 360],
  [1280, 720],
  [1920, 1080],
];
/** Frame rates offered (GIF delays are whole hundredths of a second: 100, 50, 25, 20, 10). */
export const TIMELAPSE_RATES: readonly number[] = [1, 2, 4, 5, 10];

/** "Kings River fields 2024-03-02 to 2025-10-20 timelapse.gif": the place and the date range. */
export function timelapseFileName(place: string, dates: readonly string[], ext: 'gif' | 'webm'): string {
  const sorted = [...dates].sort();
  const range = sorted.length > 1 ? `${sorted[0]} to ${sorted[sorted.length - 1]}` : (sorted[0] ?? '');
  return safeFileName(`${place} ${range} timelapse`.replace(/\s+/g, ' ').trim(), `.${ext}`);
}

interface Plan {
  place: string;
  dates: string[];
  request: Omit<TimelapseRequest, 'width' | 'height' | 'fps' | 'format'>;
}

/** What to draw: the AOI's mosaics over its outline; else the time slider's dates over the view. */
async function planOf(services: CommandServices, given: Aoi | undefined, title: string): Promise<Plan | undefined> {
  let aoi = given;
  if (!aoi) {
    const map = services.panels.currentMap();
    const shown = map && (await inStep(l10n.t('{0}: asking the map', title), () => map.timelapses.source()));
    if (shown) {
      return { place: shown.title, dates: shown.dates, request: { title: shown.title, outline: shown.outline } };
    }
    const client = await services.connection.getClient();
    aoi = await pickAoi(services, client, l10n.t('{0}: AOI', title));
    if (!aoi) return undefined;
  }
  const client = await services.connection.getClient();
  const aoiId = aoi.aoi_id;
  const dated = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Listing the dates…') }, () => aoiFrames(client, aoiId));
  const place = aoi.name || aoi.aoi_id;
  if (!dated.frames.length) {
    const why = l10n.t('{0} has no mosaic that can be read here.', place);
    void services.ui.message('warning', dated.skipped ? `${why} ${dated.skipped}` : why, {});
    return undefined;
  }
  const frames: TimeFrame[] = dated.frames;
  return {
    place,
    dates: frames.map((f) => f.date),
    request: { title: place, frames, bbox: geometryBbox(aoi.geometry) as [number, number, number, number], outline: aoi.geometry },
  };
}

async function chooseOutput(services: CommandServices, title: string): Promise<Pick<TimelapseRequest, 'format' | 'width' | 'height' | 'fps'> | undefined> {
  const ui = services.ui;
  const format = await ui.pick(
    [
      { label: l10n.t('Animated GIF'), description: l10n.t('plays everywhere: chat, issues, slides'), format: 'gif' as const },
      { label: l10n.t('WebM video'), description: l10n.t('smaller, full colour; plays in browsers and VS Code'), format: 'webm' as const },
    ],
    { title: l10n.t('{0}: format', title), ignoreFocusOut: true },
  );
  if (!format) return undefined;
  const size = await ui.pick(
    TIMELAPSE_SIZES.map(([w, h]) => ({
      label: l10n.t('{0} × {1} pixels', w, h),
      description: w === h ? l10n.t('square') : l10n.t('widescreen'),
      size: [w, h] as const,
    })),
    { title: l10n.t('{0}: frame size', title), placeHolder: l10n.t('The place is fitted inside the frame'), ignoreFocusOut: true },
  );
  if (!size) return undefined;
  const rate = await ui.pick(
    // 2 frames per second first: each date long enough to read its label
    [2, ...TIMELAPSE_RATES.filter((r) => r !== 2)].map((fps) => ({
      label: framesPerSecond(fps),
      description: l10n.t('{0} s per date', (1 / fps).toFixed(fps > 2 ? 2 : 1)),
      fps,
    })),
    { title: l10n.t('{0}: frame rate', title), ignoreFocusOut: true },
  );
  if (!rate) return undefined;
  return { format: format.format, width: size.size[0], height: size.size[1], fps: rate.fps };
}

/** "1 frame per second", "2 frames per second". */
const framesPerSecond = (fps: number): string => (fps === 1 ? l10n.t('1 frame per second') : l10n.t('{0} frames per second', fps));

function summary(target: vscode.Uri, r: TimelapseResult, total: number): string {
  const saved = l10n.t(
    'Saved {0}: {1}, {2} × {3} pixels, {4}.',
    vscode.workspace.asRelativePath(target),
    r.dates.length === 1 ? l10n.t('1 frame') : l10n.t('{0} frames', r.dates.length),
    r.width,
    r.height,
    framesPerSecond(r.fps),
  );
  if (!r.skipped.length) return saved;
  const first = r.skipped[0];
  return `${saved} ${l10n.t('{0} of {1} dates left out; the first, {2}: {3}', r.skipped.length, total, first.date, first.error)}`;
}

/** What the command returns (the tests read it): the file written, or nothing when cancelled. */
export async function exportTimelapse(services: CommandServices, given: Aoi | undefined): Promise<{ target: vscode.Uri; result: TimelapseResult } | undefined> {
  const title = l10n.t('Export Timelapse');
  const plan = await planOf(services, given, title);
  if (!plan) return undefined;
  if (plan.dates.length < 2) {
    void services.ui.message('warning', l10n.t('{0}: {1} has {2} date(s); a timelapse needs two.', title, plan.place, plan.dates.length), {});
    return undefined;
  }
  const output = await chooseOutput(services, title);
  if (!output) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = timelapseFileName(plan.place, plan.dates, output.format);
  const ask = services.ui.saveDialog?.bind(services.ui) ?? vscode.window.showSaveDialog;
  const target = await ask({
    title,
    saveLabel: l10n.t('Save'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: output.format === 'gif' ? { [l10n.t('Animated GIF')]: ['gif'] } : { [l10n.t('WebM video')]: ['webm'] },
  });
  if (!target) return undefined;
  const map: MapView = plan.request.frames ? services.panels.showMap() : (services.panels.currentMap() ?? services.panels.showMap());
  if (given) map.showTarget({ layer: 'aois', features: [aoiFeature(given)], sources: [{ kind: 'aoi', id: given.aoi_id }] }, { fit: false });
  const request: TimelapseRequest = { ...plan.request, ...output };
  const result = await inStep(
    (reason) => l10n.t('{0}: {1}', title, reason),
    () =>
      withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('Timelapse of {0}', plan.place), cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const r = await map.timelapse(request, {
            signal: abort.signal,
            onProgress: (done, total, date) =>
              progress.report({ increment: 100 / Math.max(1, total), message: l10n.t('{0} of {1} dates ({2})', done, total, date) }),
          });
          progress.report({ message: l10n.t('writing the file') });
          await writeAtomically(target, r.bytes instanceof Uint8Array ? r.bytes : new Uint8Array(r.bytes));
          return r;
        },
      ),
  );
  services.log.info(
    `exportTimelapse: ${output.format}${result.codec ? ` (${result.codec})` : ''} ${result.width}×${result.height} at ${result.fps} fps, ${result.dates.length} frames, ${result.skipped.length} dates left out, ${result.bytes.byteLength} bytes`,
  );
  const open = l10n.t('Open');
  const reveal = l10n.t('Reveal in File Explorer');
  void services.ui.message(result.skipped.length ? 'warning' : 'info', summary(target, result, plan.dates.length), {}, open, reveal).then((b) => {
    if (b === open) void vscode.commands.executeCommand('vscode.open', target);
    else if (b === reveal) void vscode.commands.executeCommand('revealFileInOS', target);
  });
  return { target, result };
}
