/**
 * A layer's histogram panel over the view's window (from the decoded tiles): for a composite,
 * one histogram per drawn band with the stretch's ends as handles; for an index layer, the
 * histogram of the index values, its bars in the colour map, with the colour map's range
 * (`rescale`) as handles. Moving a handle restyles the layer, which redraws from the same
 * decoded tiles (no read). Follows the view as it moves.
 */
import * as l10n from '@vscode/l10n';
import type * as Leaflet from 'leaflet';
import type { ImageryRender } from '../../../src/panels/imagery/protocol';
import { el } from '../../shared/dom';
import { loadAnalysisChunk } from './analysisLoader';
import { windowIndexHistogram } from './indexHistogram';
import type { HistogramChart } from '../analysis/histogramChart';
import type { ImageryLayerHandle } from './imageryLayer';
import { windowHistogram, type WindowHistogram } from './pixelRead';
import { modeOf } from './stretch';

const CHANNELS = ['Red', 'Green', 'Blue'];

export class HistogramPanel {
  readonly root: HTMLElement;
  private charts: HistogramChart[] = [];
  private readonly status: HTMLElement;
  private readonly onMove = () => void this.refresh();
  /** The last histograms drawn (the tests compare them with the decoded window). */
  last?: WindowHistogram;
  private names: string[] = [];
  private labels = '';

  constructor(
    private readonly layer: ImageryLayerHandle,
    private readonly map: Leaflet.Map,
    private readonly restyle: (render: ImageryRender) => void,
  ) {
    this.status = el('div', { class: 'status muted', role: 'status' });
    this.root = el('div', { class: 'eo-histograms', 'aria-label': l10n.t('Histograms of the view') }, this.status);
    map.on('moveend', this.onMove);
    layer.on('load', this.onMove);
  }

  /** Bands the look draws, with their stretch, in channel order; or the index with its colour map's range. */
  private async channels(): Promise<{ band: number; name: string; label: string; stretch: [number, number]; colormap?: Uint8ClampedArray }[]> {
    const r = this.layer.spec.render;
    const names = (await this.layer.bandNames()).map((b) => b.name);
    await this.layer.lookReady();
    if (r.kind === 'rgb') {
      const chosen = r.bands[0] ? r.bands : names.slice(0, 3);
      return chosen.map((n, i) => ({
        band: names.indexOf(n),
        name: n,
        label: l10n.t('{0} channel: {1}', l10n.t(CHANNELS[i]), n),
        stretch: this.layer.stretch?.[i] ?? [0, 1],
      }));
    }
    if (r.kind === 'index') {
      // the colour map the layer is drawn with
      const colormap = this.layer.look?.kind === 'index' ? this.layer.look.lut : undefined;
      return [{ band: -1, name: r.legendTitle, label: l10n.t('{0} values', r.legendTitle), stretch: r.rescale, colormap }];
    }
    return [];
  }

  async refresh(): Promise<WindowHistogram | undefined> {
    const chans = await this.channels().catch(() => []);
    if (!chans.length) {
      this.status.textContent = l10n.t('Histograms are shown for three-band composites and index layers.');
      return undefined;
    }
    this.names = chans.map((c) => c.name);
    const h = await (
      this.layer.spec.render.kind === 'index'
        ? windowIndexHistogram(this.layer, this.map, 96)
        : windowHistogram(
            this.layer,
            this.map,
            chans.map((c) => c.band),
            96,
          )
    ).catch(() => undefined);
    if (!h) {
      this.status.textContent = l10n.t('The layer is not in view.');
      return undefined;
    }
    this.last = h;
    this.status.textContent = h.missing ? l10n.t('Some tiles of the view are still loading.') : '';
    const chunk = await loadAnalysisChunk();
    const labels = chans.map((c) => c.label).join('\n');
    if (this.charts.length !== chans.length || this.labels !== labels) {
      for (const c of this.charts) c.destroy();
      this.labels = labels;
      this.charts = chans.map((c, i) =>
        chunk.histogramChart(this.root, {
          label: c.label,
          colour: [4, 2, 0][i] ?? i,
          width: 240,
          onChange: (s) => this.setStretch(i, s),
        }),
      );
    }
    h.bands.forEach((b, i) => this.charts[i]?.set({ lo: b.lo, hi: b.hi, counts: b.counts, colormap: chans[i].colormap }, chans[i].stretch));
    return h;
  }

  private setStretch(channel: number, s: [number, number]): void {
    const r = this.layer.spec.render;
    if (r.kind === 'index') {
      this.restyle({ ...r, rescale: s });
      return;
    }
    if (r.kind !== 'rgb') return;
    // linked: a handle moved on one band's histogram moves the one range of all three
    const linked = modeOf({ ...r, stretch: this.layer.stretch ?? r.stretch }) === 'linked';
    const stretch = [0, 1, 2].map((i) => (linked || i === channel ? s : (this.layer.stretch?.[i] ?? [0, 1]))) as [number, number][];
    const bands = (r.bands[0] ? r.bands : this.names) as [string, string, string];
    if (bands.length !== 3) return;
    this.restyle({ ...r, bands, stretch });
  }

  destroy(): void {
    this.map.off('moveend', this.onMove);
    this.layer.off('load', this.onMove);
    for (const c of this.charts) c.destroy();
    this.root.remove();
  }
}
