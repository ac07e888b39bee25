/**
 * A STAC item as a page: header with thumbnail, properties grouped by prefix, assets, links,
 * a small footprint map, raw JSON, and actions the extension maps to commands. Built with
 * DOM calls only; every value from the service is text.
 */
import * as L from 'leaflet';
import * as l10n from '@vscode/l10n';
import type { ArchiveItem, StacAsset } from '../../src/api/records';
import type { StacAction, StacState } from '../../src/panels/protocol';
import { bboxRing } from '../../src/geo/antimeridian';
import { append, button, clear, el, link } from '../shared/dom';
import { FootprintLayer } from '../shared/footprintLayer';
import { showNotice } from '../shared/notice';
import { addOfflinePane, createOfflineBasemap } from '../shared/offlineBasemap';
import type { VsCodeApi } from '../shared/vscodeApi';
import { GROUPS, formatDate, formatValue, groupProperties, groupTitle, isImageDataUrl } from './format';
import { STAC_TO_PAGE, type FromStacMessage } from '../../src/panels/stacMessages';
import type { Handlers } from '../../src/panels/webview/messages';
import { listen } from '../shared/messages';

/** Very long values are cut for display; the full text stays in the tooltip and the raw JSON. */
const MAX_SHOWN = 300;
function clip(s: string): string {
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export class StacItemApp {
  private item?: ArchiveItem;
  private stacUrl = '';
  private state: StacState;
  private miniMap?: L.Map;
  private thumb?: HTMLElement;
  private themeWatch?: MutationObserver;

  constructor(
    private readonly vscode: VsCodeApi<StacState>,
    private readonly root: HTMLElement,
  ) {
    this.state = vscode.getState() ?? {};
    append(root, el('p', { class: 'muted', id: 'loading' }, l10n.t('Loading the item…')));
    listen(STAC_TO_PAGE, this.handlers());
    this.post({ type: 'ready' });
  }

  private post(m: FromStacMessage): void {
    this.vscode.postMessage(m);
  }

  /** One handler per message of the STAC page's table (src/panels/stacMessages.ts). */
  private handlers(): Handlers<typeof STAC_TO_PAGE> {
    return {
      item: (m) => this.render(m.item, m.stacUrl),
      thumbnail: (m) => this.showThumbnail(m.dataUrl, m.assetKey),
      loading: (m) => {
        clear(this.root);
        append(this.root, el('p', { class: 'muted', id: 'loading' }, m.label));
      },
      error: (m) => {
        clear(this.root);
        append(this.root, el('p', { class: 'error', role: 'alert', id: 'load-error' }, m.message));
      },
      notice: (m) => showNotice(m.text, m.level),
    };
  }

  private open = (url: string) => this.post({ type: 'openExternal', url });

  private render(item: ArchiveItem, stacUrl: string): void {
    this.item = item;
    this.stacUrl = stacUrl;
    this.state = { ...this.state, collection: item.collection, id: item.id };
    this.vscode.setState(this.state);
    this.miniMap?.remove();
    this.miniMap = undefined;
    clear(this.root);
    const props = (item.properties ?? {}) as Record<string, unknown>;
    const dt = typeof props.datetime === 'string' ? formatDate(props.datetime) : { text: l10n.t('no date') };
    this.thumb = el('div', { class: 'thumb', id: 'thumbnail', 'aria-label': l10n.t('Thumbnail') }, el('span', { class: 'muted' }, l10n.t('No thumbnail')));
    const header = el(
      'header',
      { class: 'head' },
      this.thumb,
      el(
        'div',
        { class: 'head-text' },
        el('h1', { id: 'item-id', title: String(item.id) }, clip(String(item.id))),
        el(
          'div',
          { class: 'sub' },
          el('span', { class: 'badge', id: 'item-collection', title: l10n.t('Collection') }, String(item.collection ?? '')),
          ' ',
          el('span', { id: 'item-datetime', title: dt.title ?? '' }, dt.text),
        ),
        typeof props.title === 'string' && props.title !== item.id ? el('div', { class: 'muted' }, clip(props.title)) : null,
        el(
          'div',
          { class: 'actions' },
          this.action('order', l10n.t('Order this item')),
          this.action('showImagery', l10n.t('Show imagery on map'), 'secondary'),
          this.action('copyStacUrl', l10n.t('Copy STAC URL'), 'secondary'),
          this.action('insightInput', l10n.t('Use as insight input'), 'secondary'),
        ),
      ),
    );
    const mapBox = el('div', { id: 'footprint', class: 'footprint', 'aria-label': l10n.t('Footprint map') });
    const raw = el(
      'details',
      { id: 'raw', open: this.state.rawOpen === true },
      el('summary', {}, l10n.t('Raw JSON')),
      el('pre', { class: 'json' }, JSON.stringify(item, null, 2)),
    );
    raw.addEventListener('toggle', () => {
      this.state = { ...this.state, rawOpen: raw.open };
      this.vscode.setState(this.state);
    });
    append(
      this.root,
      header,
      el(
        'div',
        { class: 'cols' },
        el('div', { class: 'col-main' }, this.properties(props)),
        el('div', { class: 'col-side' }, el('h2', {}, l10n.t('Footprint')), mapBox),
      ),
      this.assets(item.assets ?? {}),
      this.links(item.links ?? []),
      raw,
    );
    this.drawFootprint(mapBox, item);
  }

  private action(action: StacAction, label: string, cls = ''): HTMLButtonElement {
    return button(label, () => this.post({ type: 'action', action }), { class: cls, 'data-action': action });
  }

  private properties(props: Record<string, unknown>): HTMLElement {
    const box = el('section', { id: 'properties', 'aria-label': l10n.t('Properties') }, el('h2', {}, l10n.t('Properties')));
    const groups = groupProperties(props);
    for (const g of GROUPS) {
      const rows = groups.get(g) ?? [];
      if (rows.length === 0) continue;
      const table = el('table', { class: 'props', 'data-group': g });
      for (const [k, v] of rows) {
        const shown = formatValue(k, v);
        const value = shown.href
          ? link(shown.href, clip(shown.text), this.open)
          : el('span', { title: shown.title ?? (shown.text.length > MAX_SHOWN ? shown.text : '') }, clip(shown.text));
        table.appendChild(el('tr', {}, el('th', { scope: 'row', title: k }, clip(k)), el('td', {}, value)));
      }
      append(box, el('h3', {}, groupTitle(g)), table);
    }
    return box;
  }

  private assets(assets: Record<string, StacAsset>): HTMLElement {
    const entries = Object.entries(assets);
    const box = el('section', { id: 'assets', 'aria-label': l10n.t('Assets') }, el('h2', {}, l10n.t('Assets ({0})', entries.length)));
    if (entries.length === 0) return (append(box, el('p', { class: 'muted' }, l10n.t('No assets.'))), box);
    const table = el(
      'table',
      { class: 'grid' },
      el(
        'thead',
        {},
        el('tr', {}, ...[l10n.t('Key'), l10n.t('Title'), l10n.t('Type'), l10n.t('Roles'), l10n.t('Href')].map((h) => el('th', { scope: 'col' }, h))),
      ),
    );
    const body = el('tbody', {});
    for (const [key, a] of entries) {
      const href = typeof a?.href === 'string' ? a.href : '';
      body.appendChild(
        el(
          'tr',
          { 'data-asset': key },
          el('td', { class: 'key' }, clip(key)),
          el('td', {}, typeof a?.title === 'string' ? clip(a.title) : ''),
          el('td', { class: 'type' }, typeof a?.type === 'string' ? clip(a.type) : ''),
          el('td', {}, Array.isArray(a?.roles) ? clip(a.roles.map(String).join(', ')) : ''),
          el(
            'td',
            { class: 'href' },
            el('code', { title: href }, clip(href)),
            el(
              'span',
              { class: 'href-actions' },
              button(l10n.t('Copy'), () => this.post({ type: 'copy', text: href }), {
                class: 'secondary small',
                'aria-label': l10n.t('Copy href of {0}', key),
              }),
              link(href, l10n.t('Open'), this.open, l10n.t('Open {0}', key)),
            ),
          ),
        ),
      );
    }
    table.appendChild(body);
    box.appendChild(table);
    return box;
  }

  private links(links: unknown[]): HTMLElement {
    const box = el('section', { id: 'links', 'aria-label': l10n.t('Links') }, el('h2', {}, l10n.t('Links ({0})', links.length)));
    const ul = el('ul', { class: 'links' });
    for (const l of links) {
      const { rel, href, title, type } = (l ?? {}) as { rel?: unknown; href?: unknown; title?: unknown; type?: unknown };
      ul.appendChild(
        el(
          'li',
          {},
          el('span', { class: 'badge' }, typeof rel === 'string' ? clip(rel) : '?'),
          ' ',
          link(href, clip(typeof title === 'string' && title ? title : typeof href === 'string' ? href : l10n.t('(no href)')), this.open),
          typeof type === 'string' ? el('span', { class: 'muted' }, ` ${type}`) : null,
        ),
      );
    }
    box.appendChild(ul);
    return box;
  }

  private showThumbnail(dataUrl: string, key: string): void {
    if (!this.thumb || !isImageDataUrl(dataUrl)) return;
    clear(this.thumb);
    const img = el('img', { alt: l10n.t('Thumbnail (asset {0})', key) });
    img.src = dataUrl;
    this.thumb.appendChild(img);
  }

  private drawFootprint(box: HTMLElement, item: ArchiveItem): void {
    const map = L.map(box, { zoomControl: true, attributionControl: true, minZoom: 1, scrollWheelZoom: false });
    map.attributionControl.setPrefix(false);
    addOfflinePane(map);
    map.setView([0, 0], 1);
    const base = createOfflineBasemap();
    base.addTo(map);
    const style = () => ({ color: cssVar('--eo-c-results', '#f14c4c'), fillOpacity: 0.2, weight: 2, pointRadius: 4, selectedColor: '#fff' });
    const layer = new FootprintLayer<null>(style());
    // A theme switch while the page is open (e.g. to high contrast light) recolours the map.
    this.themeWatch?.disconnect();
    this.themeWatch = new MutationObserver(() => {
      base.restyle();
      layer.setStyle(style());
    });
    this.themeWatch.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    this.themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    // prefer the geometry; fall back to the bbox when the geometry is missing
    const geometry =
      item.geometry ?? (Array.isArray(item.bbox) && item.bbox.length >= 4 ? { type: 'Polygon', coordinates: [bboxRing(item.bbox.map(Number))] } : null);
    layer.setItems([{ id: 'item', geometry, data: null }]);
    layer.addTo(map);
    const b = layer.getBounds();
    if (b) map.fitBounds(b, { padding: [16, 16], maxZoom: 10, animate: false });
    this.miniMap = map;
  }

  get current(): { item?: ArchiveItem; stacUrl: string } {
    return { item: this.item, stacUrl: this.stacUrl };
  }
}
