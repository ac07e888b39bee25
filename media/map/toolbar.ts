/** The map's own small controls, top left: draw a rectangle or polygon, fit, show or hide the search panel. */
import type * as Leaflet from 'leaflet';
import * as l10n from '@vscode/l10n';
import { button, el } from '../shared/dom';
import { keepEventsInside } from './toolEvents';

export interface ToolbarActions {
  draw(shape: 'rectangle' | 'polygon'): void;
  fit(): void;
  toggleSide(): void;
}

export function addToolbar(L: typeof Leaflet, map: Leaflet.Map, act: ToolbarActions): void {
  const Toolbar = L.Control.extend({
    onAdd: () => {
      const div = el(
        'div',
        { class: 'leaflet-bar eo-toolbar' },
        button('▭', () => act.draw('rectangle'), {
          title: l10n.t('Draw a rectangle (drag)'),
          'aria-label': l10n.t('Draw a rectangle'),
          id: 'tool-rect',
        }),
        button('⬠', () => act.draw('polygon'), {
          title: l10n.t('Draw a polygon (click vertices, double-click to finish)'),
          'aria-label': l10n.t('Draw a polygon'),
          id: 'tool-poly',
        }),
        button('⤢', () => act.fit(), { title: l10n.t('Fit to all shapes'), 'aria-label': l10n.t('Fit to bounds'), id: 'tool-fit' }),
        button('☰', () => act.toggleSide(), {
          title: l10n.t('Show or hide the search panel'),
          'aria-label': l10n.t('Toggle search panel'),
          id: 'tool-panel',
        }),
      );
      keepEventsInside(L, div);
      return div;
    },
  });
  new Toolbar({ position: 'topleft' }).addTo(map);
}
