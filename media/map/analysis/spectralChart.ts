/**
 * The spectral signature: value against wavelength for the inspected pixel and up to five
 * pinned ones, one line each, in theme colours.
 */
import * as l10n from '@vscode/l10n';
import uPlot from 'uplot';

export interface SpectrumSeries {
  label: string;
  /** One value per wavelength (null where no-data). */
  values: (number | null)[];
}

export interface SpectralChart {
  /** `quantity`: what the values are ("Reflectance", or the stored value when the file gives no scale). */
  set(wavelengthsNm: number[], series: SpectrumSeries[], quantity?: string): void;
  destroy(): void;
  readonly root: HTMLElement;
}

const COLOURS = [
  '--vscode-charts-blue',
  '--vscode-charts-orange',
  '--vscode-charts-green',
  '--vscode-charts-purple',
  '--vscode-charts-red',
  '--vscode-charts-yellow',
];
const FALLBACK = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];

export function themeColour(i: number): string {
  const k = i % COLOURS.length;
  return getComputedStyle(document.documentElement).getPropertyValue(COLOURS[k]).trim() || FALLBACK[k];
}

function axisStyle(): Partial<uPlot.Axis> {
  const fg = getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim() || '#ccc';
  const grid = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editorWidget-border').trim() || 'rgba(128,128,128,0.3)';
  return { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
}

export function spectralChart(host: HTMLElement, width: number): SpectralChart {
  let plot: uPlot | undefined;
  const root = document.createElement('div');
  root.className = 'eo-spectrum';
  root.setAttribute('role', 'img');
  host.appendChild(root);
  const build = (x: number[], series: SpectrumSeries[], quantity: string) => {
    plot?.destroy();
    const opts: uPlot.Options = {
      // at most as wide as its place (the dock is narrower than `width`): it never scrolls sideways
      width: Math.min(width, host.clientWidth || width),
      height: 180,
      scales: { x: { time: false } },
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      axes: [
        { ...axisStyle(), label: l10n.t('Wavelength (nm)'), size: 34 },
        { ...axisStyle(), label: quantity, size: 48 },
      ],
      series: [
        { label: l10n.t('Wavelength') },
        ...series.map((s, i) => ({ label: s.label, stroke: themeColour(i), width: 1.5, spanGaps: false, points: { show: x.length <= 16 } })),
      ],
    };
    plot = new uPlot(opts, [x, ...series.map((s) => s.values)] as uPlot.AlignedData, root);
  };
  return {
    root,
    set(x, series, quantity = l10n.t('Value')) {
      build(x, series, quantity);
      root.setAttribute('aria-label', l10n.t('Spectral signature of {0} pixel(s) over {1} bands', series.length, x.length));
    },
    destroy() {
      plot?.destroy();
      root.remove();
    },
  };
}
