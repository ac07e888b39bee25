/** Records for the webview tests: a plain STAC item and one whose every string is hostile. */
import type { ArchiveItem } from '../../src/api/records';
import type { MapFeature } from '../../src/panels/protocol';

export function stacItem(over: Partial<ArchiveItem> = {}): ArchiveItem {
  return {
    id: 'S2-20240312-T43RFM',
    type: 'Feature',
    collection: 'sentinel-2-l2a',
    stac_version: '1.0.0',
    stac_extensions: [],
    bbox: [77.1, 28.4, 77.6, 28.9],
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [77.1, 28.4],
          [77.6, 28.4],
          [77.6, 28.9],
          [77.1, 28.9],
          [77.1, 28.4],
        ],
      ],
    },
    properties: {
      datetime: '2024-03-12T05:31:21Z',
      created: '2024-03-12T09:00:00Z',
      platform: 'sentinel-2a',
      constellation: 'sentinel-2',
      instruments: ['msi'],
      gsd: 10,
      altitude: 786000,
      'eo:cloud_cover': 12.5,
      'view:off_nadir': 3.2,
      'view:sun_azimuth': 140.25,
      'view:sun_elevation': 48.1,
      'proj:code': 'EPSG:32643',
      'proj:epsg': 32643,
      'sat:absolute_orbit': 45123,
      'sat:relative_orbit': 62,
      's2:datatake_id': 20240312053121,
      'view:incidence_angle_count': 12345,
      'proj:shape': [10980, 10980],
      'sci:doi': '10.5270/S2_-742ikth',
      'rd:product_level': 'L2A',
      'custom:thing': 'x',
    },
    assets: {
      thumbnail: { href: 'https://example.test/thumb.png', type: 'image/png', title: 'Thumbnail', roles: ['thumbnail'] },
      visual: { href: 'https://example.test/visual.tif', type: 'image/tiff; application=geotiff', title: 'True colour', roles: ['visual', 'data'] },
    },
    links: [
      { rel: 'self', href: 'https://example.test/v0/archives/collections/sentinel-2-l2a/items/S2-20240312-T43RFM', type: 'application/geo+json' },
      { rel: 'license', href: 'https://example.test/license', title: 'Licence' },
    ],
    ...over,
  };
}

const LONG = 'W'.repeat(5000);
const SCRIPT = '<script>window.__xss=1;alert(1)</script>';
const IMG = '<img src=x onerror="window.__xss=2;alert(2)">';
const JS = 'javascript:window.__xss=3;alert(3)';

export function hostileItem(): ArchiveItem {
  return stacItem({
    id: `${SCRIPT}${LONG}`,
    collection: IMG,
    properties: {
      datetime: IMG,
      title: SCRIPT,
      description: `${IMG} ${LONG}`,
      platform: JS,
      'sci:doi': `"><img src=x onerror=alert(4)>`,
      'eo:cloud_cover': 3,
      [`${SCRIPT}:key`]: IMG,
      [LONG]: LONG,
    },
    assets: {
      [SCRIPT]: { href: JS, title: IMG, type: SCRIPT, roles: [IMG, 'thumbnail'] },
      long: { href: `https://example.test/${LONG}`, title: LONG, roles: ['data'] },
      data: { href: 'data:text/html,<script>alert(5)</script>', title: 'data url' },
    },
    links: [
      { rel: SCRIPT, href: JS, title: IMG },
      { rel: 'alternate', href: 'vbscript:msgbox(1)', title: 'vb' },
      { rel: 'via', href: `https://example.test/?q=${LONG}`, title: LONG },
    ],
  });
}

export function squareFeature(id: string, lon: number, lat: number, size = 1, layer = 'results'): MapFeature {
  return {
    id,
    label: `Item ${id}`,
    detail: `${layer} · 2024-03-1${id.length % 10}`,
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [lon, lat],
          [lon + size, lat],
          [lon + size, lat + size],
          [lon, lat + size],
          [lon, lat],
        ],
      ],
    },
    ref: { kind: 'archiveItem', collection: 'c1', id },
  };
}
