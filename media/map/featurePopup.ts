/** The popup of a footprint clicked on the map: its name and detail, and what can be done with it. */
import * as l10n from '@vscode/l10n';
import type { FromMapMessage } from '../../src/panels/mapMessages';
import { button, el } from '../shared/dom';
import type { ShownFeature } from './layerKinds';

export function featurePopup(f: ShownFeature, post: (m: FromMapMessage) => void): HTMLElement {
  return el(
    'div',
    { class: 'eo-popup' },
    el('div', { class: 'label' }, f.label),
    f.detail ? el('div', { class: 'muted' }, f.detail) : null,
    el(
      'div',
      { class: 'popup-actions' },
      button(l10n.t('Open details'), () => post({ type: 'open', ref: f.ref }), { class: 'open-detail' }),
      f.ref.kind === 'archiveItem'
        ? button(l10n.t('Show imagery'), () => post({ type: 'showImagery', ref: f.ref }), { class: 'show-imagery secondary' })
        : null,
      f.ref.kind === 'aoi'
        ? button(l10n.t('Chart index over time…'), () => post({ type: 'chartIndex', area: { kind: 'aoi', aoiId: f.ref.id } }), {
            class: 'chart-index secondary',
          })
        : null,
    ),
  );
}
