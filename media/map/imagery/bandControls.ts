/**
 * An RGB layer's band and stretch controls in the layer list: the combination select (and
 * three band fields for "Pick three bands…"), the stretch mode (one range for red, green and
 * blue, or one per band), its minimum and maximum (once, or per channel), and the percentile
 * stretch. What they mean is bandState.ts; a valid input restyles the layer, an
 * invalid one says why under the fields.
 */
import * as l10n from '@vscode/l10n';
import type { ImageryBand, ImageryRender } from '../../../src/panels/imagery/protocol';
import { button, el } from '../../shared/dom';
import { type BandControlsState, CUSTOM, customLook, modeLook, type Outcome, percentileLook, presetLook, stretchLook } from './bandState';
import type { StretchMode } from './stretch';

type RgbRender = Extract<ImageryRender, { kind: 'rgb' }>;

/** The controls' elements, to append under the layer's row; `restyle` applies a new look. */
export function bandControls(
  layerId: string,
  bands: readonly ImageryBand[],
  render: RgbRender,
  state: BandControlsState,
  restyle: (render: RgbRender) => void,
): HTMLElement[] {
  const hint = el('div', { class: 'muted hint' }, state.hint);
  const apply = (o: Outcome) => {
    if ('hint' in o) hint.textContent = o.hint;
    else restyle(o.render);
  };

  const select = el('select', { 'aria-label': l10n.t('Band combination'), class: 'preset' }) as HTMLSelectElement;
  for (const o of state.options) select.appendChild(el('option', { value: o.value }, o.label));
  select.value = state.selected;
  const custom = el('div', { class: 'custom', hidden: true });
  const listId = `bands-${layerId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const datalist = el('datalist', { id: listId });
  for (const b of state.bands) datalist.appendChild(el('option', { value: b.value }, b.label));
  const inputs = [l10n.t('Red'), l10n.t('Green'), l10n.t('Blue')].map((c, i) => {
    const inp = el('input', { list: listId, 'aria-label': l10n.t('{0} channel band', c), placeholder: c, class: 'band' }) as HTMLInputElement;
    inp.value = state.chosen[i];
    return inp;
  });
  const applyBands = button(
    l10n.t('Apply'),
    () =>
      apply(
        customLook(
          inputs.map((i) => i.value),
          bands,
          render,
        ),
      ),
    { class: 'secondary' },
  );
  custom.append(datalist, ...inputs, applyBands, hint);
  select.addEventListener('change', () => {
    if (select.value === CUSTOM) {
      custom.hidden = false;
      inputs[0].focus();
      return;
    }
    custom.hidden = true;
    restyle(presetLook(select.value, render));
  });

  // the stretch: one range for the three channels, or one per band; keyboard-reachable as a select
  const mode = el('select', { 'aria-label': l10n.t('Stretch mode'), class: 'stretch-mode' }) as HTMLSelectElement;
  for (const m of state.modes) mode.appendChild(el('option', { value: m.value }, m.label));
  mode.value = state.mode;
  mode.addEventListener('change', () => restyle(modeLook(mode.value as StretchMode, render, state.chosen)));

  // its minimum and maximum, in the bands' physical units: one pair when linked, else one a channel
  const channels = state.mode === 'linked' ? [l10n.t('RGB')] : [l10n.t('R'), l10n.t('G'), l10n.t('B')];
  const pairs = channels.map((c, i) => {
    const lo = el('input', { type: 'number', step: 'any', 'aria-label': l10n.t('{0} minimum', c), class: 'num' }) as HTMLInputElement;
    const hi = el('input', { type: 'number', step: 'any', 'aria-label': l10n.t('{0} maximum', c), class: 'num' }) as HTMLInputElement;
    const shown = state.stretch[i];
    if (shown) {
      lo.value = String(shown[0]);
      hi.value = String(shown[1]);
    }
    return { c, lo, hi };
  });
  const pct = el('input', {
    type: 'text',
    'aria-label': l10n.t('Percentiles'),
    class: 'pct',
    title: l10n.t('Percentile stretch, e.g. 2-98'),
  }) as HTMLInputElement;
  pct.value = state.percentiles;
  const applyStretch = button(
    l10n.t('Stretch'),
    () =>
      apply(
        stretchLook(
          pairs.map(({ lo, hi }) => [lo.value, hi.value]),
          render,
          state.chosen,
        ),
      ),
    { class: 'secondary', title: l10n.t('Use these minimum and maximum values') },
  );
  const auto = button(l10n.t('Auto'), () => apply(percentileLook(pct.value, render, state.chosen)), {
    class: 'secondary',
    title: l10n.t('Stretch between these percentiles of the overview’s clear pixels'),
  });
  return [
    el('label', { class: 'field-inline' }, l10n.t('Bands'), ' ', select),
    custom,
    el('label', { class: 'field-inline' }, l10n.t('Stretch'), ' ', mode),
    el('div', { class: 'stretch' }, ...pairs.flatMap(({ c, lo, hi }) => [el('span', { class: 'muted' }, c), lo, hi])),
    el('div', { class: 'stretch-actions' }, applyStretch, el('span', { class: 'muted' }, l10n.t('Percentiles')), pct, auto),
  ];
}
