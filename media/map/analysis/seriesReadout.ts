/** The line under the index-over-time chart that tells one date's numbers in words. */
import * as l10n from '@vscode/l10n';
import type { SeriesPoint } from '../../../src/panels/imagery/seriesMessages';

function num(v: number | undefined): string {
  return v === undefined ? '–' : v.toFixed(3);
}

/** The sentence the readout shows for one date. */
export function describePoint(p: SeriesPoint | undefined, date: string, label: string): string {
  if (!p) return l10n.t('{0}: not read yet', date);
  if (p.error) return l10n.t('{0}: {1}', date, p.error);
  if (p.value !== undefined && p.pixels === 1) {
    return p.valid
      ? l10n.t('{0}: {1} {2} at the pixel{3}', date, label, num(p.value), p.overCloudLimit ? l10n.t(', above the cloud limit') : '')
      : l10n.t('{0}: {1} {2} at the pixel, not valid ({3})', date, label, num(p.value), p.cloudyPixels ? l10n.t('cloud') : l10n.t('no data'));
  }
  const share = Math.round(p.validShare * 100);
  if (p.median === undefined) return l10n.t('{0}: no valid pixels ({1} % valid)', date, share);
  return l10n.t(
    '{0}: {1} median {2} (10–90 %: {3} to {4}), mean {5}, {6} % of {7} pixels valid{8}',
    date,
    label,
    num(p.median),
    num(p.p10),
    num(p.p90),
    num(p.mean),
    share,
    p.pixels,
    p.overCloudLimit ? l10n.t(', above the cloud limit') : '',
  );
}
