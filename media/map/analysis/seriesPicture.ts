/** The index-over-time chart as a picture for "Save PNG": its canvas under a title, on the theme's background. */
import * as l10n from '@vscode/l10n';
import { css } from './seriesPlot';
import { themeColour } from './spectralChart';

/** `src` (the plot's canvas, when drawn) under `title`; overlaid series get their names under it. */
export function chartPicture(src: HTMLCanvasElement | undefined, labels: string[], title: string): HTMLCanvasElement {
  const ratio = devicePixelRatio || 1;
  const c = document.createElement('canvas');
  const head = Math.round(28 * ratio);
  const legend = labels.length > 1 ? Math.round(18 * ratio * labels.length) : 0;
  c.width = src?.width ?? 1;
  c.height = (src?.height ?? 1) + head + legend;
  const ctx = c.getContext('2d');
  if (!ctx) throw new Error(l10n.t('The chart could not be drawn.'));
  ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = css('--vscode-foreground', '#ccc');
  ctx.font = `${Math.round(13 * ratio)}px sans-serif`;
  ctx.fillText(title, 8 * ratio, 18 * ratio);
  if (src) ctx.drawImage(src, 0, head);
  // overlaid: the names under the chart, each in its colour (the DOM legend is not on the canvas)
  if (legend) {
    labels.forEach((label, j) => {
      const y = head + (src?.height ?? 0) + Math.round(14 * ratio) + j * Math.round(18 * ratio);
      ctx.fillStyle = themeColour(j);
      ctx.fillRect(8 * ratio, y - 9 * ratio, 14 * ratio, 4 * ratio);
      ctx.fillStyle = css('--vscode-foreground', '#ccc');
      ctx.fillText(label, 28 * ratio, y);
    });
  }
  return c;
}
