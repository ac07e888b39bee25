/**
 * Order Tasking's questions about the capture itself: when (the capture window, how often and
 * how many times) and under which limits (cloud cover, off-nadir angle, delivery speed). The
 * bandset step is ./bandsetStep.ts.
 */
import { l10n } from 'vscode';
import { outcome, type Step } from '../../ui/multiStep';
import { checkDateRange, parseOrderDate } from '../../orders/orderDates';
import { checkCloudCover, checkOccurrences, checkOffNadir, DELIVERY_SPEEDS, RECURRENCES } from '../../orders/rules';
import { enumStep, textStep } from './common';

/** The entries the capture window steps fill in. */
export interface CaptureWindow {
  start: string;
  end: string;
  recurrence: string;
  occurrences: string;
}

/** The entries the capture limit steps fill in. */
export interface CaptureLimits {
  cloudCover: string;
  offNadir: string;
  speed: string;
}

/** Start date, end date, recurrence and (unless once) the number of captures. */
export function captureWindowSteps<S extends CaptureWindow>(): Step<S>[] {
  return [
    textStep(
      l10n.t('Start date'),
      l10n.t('First day of the capture window (YYYY-MM-DD, UTC)'),
      (s) => s.start,
      (s, v) => (s.start = v),
      (v) => {
        const r = parseOrderDate(v);
        return r.ok ? undefined : r.reason;
      },
    ),
    {
      name: l10n.t('End date'),
      describe: (s) => s.end,
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: l10n.t('Last day of the capture window (after {0})', s.start),
          value: s.end,
          validate: (v) => checkDateRange(s.start, v),
        });
        return outcome(answer, (v) => (s.end = v.trim()));
      },
    },
    enumStep(
      l10n.t('Recurrence'),
      l10n.t('How often to capture'),
      RECURRENCES,
      (s) => s.recurrence,
      (s, v) => {
        s.recurrence = v;
        if (v === 'ONCE') s.occurrences = '1';
      },
    ),
    {
      name: l10n.t('Occurrences'),
      describe: (s) => s.occurrences,
      when: (s) => s.recurrence !== 'ONCE',
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: l10n.t('Number of captures (1–366)'),
          value: s.occurrences === '1' ? '2' : s.occurrences,
          validate: checkOccurrences,
        });
        return outcome(answer, (v) => (s.occurrences = v.trim()));
      },
    },
  ];
}

/** Maximum cloud cover, maximum off-nadir angle and delivery speed. */
export function captureLimitSteps<S extends CaptureLimits>(): Step<S>[] {
  return [
    textStep(
      l10n.t('Cloud cover'),
      l10n.t('Maximum cloud cover, % (0–100)'),
      (s) => s.cloudCover,
      (s, v) => (s.cloudCover = v),
      checkCloudCover,
    ),
    textStep(
      l10n.t('Off-nadir'),
      l10n.t('Maximum off-nadir angle, degrees (0–60)'),
      (s) => s.offNadir,
      (s, v) => (s.offNadir = v),
      checkOffNadir,
    ),
    enumStep(
      l10n.t('Delivery speed'),
      l10n.t('Delivery speed (faster costs more)'),
      DELIVERY_SPEEDS,
      (s) => s.speed,
      (s, v) => (s.speed = v),
    ),
  ];
}
