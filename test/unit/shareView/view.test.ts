/**
 * Shared views: a view from the map survives the link and the file unchanged; hostile or broken
 * links and files are refused with a sentence (unknown layer kinds, bad numbers, foreign
 * extensions, extra parts), and neither form can carry a token, a file URL or a setting.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MapViewState } from '../../../src/panels/protocol';
import { checkView, decodeLink, encodeLink, readViewFile, viewFileText, viewFromMap, type SharedView } from '../../../src/commands/shareView/view';

const EXT = 'eo-imagery.eo-imagery';

const mapState: MapViewState = {
  center: [47.61, 9.43],
  zoom: 11.5,
  sources: {
    aois: [{ kind: 'aoi', id: 'aoi-1' }],
    archiveItems: [{ kind: 'archiveItem', collection: 'sentinel-2-l2a', id: 'S2A_32TNT_20260601_0_L2A' }],
    orderItems: [
      { kind: 'orderItem', id: 'oi-7' },
      { kind: 'orderItem', id: 'oi-7' },
    ],
  },
  imagery: [
    {
      title: 'Lake Constance 2026-06-01',
      source: { kind: 'archiveItem', collection: 'sentinel-2-l2a', id: 'S2A_32TNT_20260601_0_L2A', asset: 'data' },
      render: { kind: 'index', expression: '(B08-B04)/(B08+B04)', rescale: [-0.2, 0.9], colormap: 'RdYlGn', legendTitle: 'NDVI' },
      opacity: 0.8,
      visible: true,
    },
    { title: 'Signed file', source: { kind: 'url', url: 'https://bucket.example/x.tif?X-Amz-Signature=abc' }, render: { kind: 'rgb', bands: ['1', '2', '3'] } },
    { title: 'Service picture', source: { kind: 'visualizationPng', aoiId: 'aoi-1', id: 'v1', date: '2026-06-01', mode: 'dynamic' } },
  ],
};

function view(): SharedView {
  const got = viewFromMap(mapState, 'api.example.com');
  assert.ok('view' in got, JSON.stringify(got));
  return got.view;
}

const link = (v: unknown): { scheme: string; authority: string; path: string; query: string } => ({
  scheme: 'vscode',
  authority: EXT,
  path: '/view',
  query: `v=${Buffer.from(JSON.stringify(v)).toString('base64url')}`,
});

describe('shared view: from the map, and round trips', () => {
  it('keeps the place, the records by kind and id (once each), and imagery by record with its look', () => {
    const v = view();
    assert.deepEqual(v.center, { lon: 9.43, lat: 47.61 });
    assert.equal(v.zoom, 11.5);
    assert.equal(v.host, 'api.example.com');
    assert.deepEqual(v.layers, [
      { kind: 'aoi', id: 'aoi-1' },
      { kind: 'archiveItem', collection: 'sentinel-2-l2a', id: 'S2A_32TNT_20260601_0_L2A' },
      { kind: 'orderItem', id: 'oi-7' },
    ]);
    assert.equal(v.imagery.length, 1);
    assert.equal(v.imagery[0].render?.kind, 'index');
  });

  it('leaves out imagery drawn from a file address or a rendered picture, and says so', () => {
    const got = viewFromMap(mapState, 'api.example.com');
    assert.ok('left' in got);
    assert.equal(got.left.length, 2);
    assert.match(got.left[0], /^Signed file /);
    const text = JSON.stringify(got.view);
    assert.ok(!text.includes('Signature') && !text.includes('https://') && !text.includes('token'), text);
  });

  it('link: encode then decode gives the same view', () => {
    const v = view();
    const url = new URL(encodeLink(v, EXT));
    assert.equal(url.protocol, 'vscode:');
    const back = decodeLink({ scheme: 'vscode', authority: url.host, path: url.pathname, query: url.search.slice(1) }, EXT);
    assert.deepEqual(back, { ok: v });
  });

  it('file: write then read gives the same view', () => {
    const v = view();
    assert.deepEqual(readViewFile(viewFileText(v)), { ok: v });
    assert.deepEqual(readViewFile(JSON.stringify({ $schema: 'x', ...v })), { ok: v }, 'a $schema line is allowed');
  });

  it('a longitude past the antimeridian is wrapped, not refused', () => {
    const got = viewFromMap({ ...mapState, center: [-17, 181.5] }, 'api.example.com');
    assert.ok('view' in got);
    assert.equal(got.view.center.lon, -178.5);
  });
});

describe('shared view: hostile and broken links are refused in words', () => {
  const good = (): SharedView => view();
  const refused = (v: unknown, pattern: RegExp): void => {
    const got = decodeLink(link(v), EXT);
    assert.ok('error' in got, `accepted: ${JSON.stringify(v)}`);
    assert.match(got.error, pattern);
  };

  it('unknown layer kinds', () => {
    refused({ ...good(), layers: [{ kind: 'settings', id: 'eoImagery.baseUrl' }] }, /^Layer 1 is of a kind this version does not know \(settings\)\.$/);
    refused({ ...good(), imagery: [{ title: 't', source: { kind: 'url', url: 'https://evil.example/x.tif' } }] }, /cannot be shared \(url\)/);
  });

  it('bad numbers', () => {
    refused({ ...good(), center: { lon: 200, lat: 0 } }, /^The longitude must be a number from -180 to 180\.$/);
    refused({ ...good(), center: { lon: 0, lat: 'NaN' } }, /The latitude must be a number/);
    refused({ ...good(), zoom: 1e9 }, /The zoom must be a number from 0 to 22/);
    refused({ ...good(), imagery: [{ ...good().imagery[0], opacity: -1 }] }, /Imagery layer 1 must be a number from 0 to 1/);
    refused(
      { ...good(), imagery: [{ ...good().imagery[0], render: { kind: 'index', expression: 'B1', rescale: [0, Infinity], colormap: 'x', legendTitle: '' } }] },
      /must be a number/,
    );
  });

  it('ids that are not ids, and looks that are not looks', () => {
    refused({ ...good(), layers: [{ kind: 'aoi', id: '../../secrets' }] }, /^Layer 1 is not an id\.$/);
    refused({ ...good(), layers: [{ kind: 'aoi', id: 'x'.repeat(300) }] }, /not an id/);
    refused({ ...good(), imagery: [{ ...good().imagery[0], render: { ...good().imagery[0].render, colormap: '<script>' } }] }, /not a colour map name/);
  });

  it('anything that would change a setting or the service: extra parts, a host that is a URL', () => {
    refused({ ...good(), baseUrl: 'https://evil.example' }, /parts this version does not know \(baseUrl\)/);
    refused({ ...good(), settings: { 'eoImagery.baseUrl': 'https://evil.example' } }, /parts this version does not know \(settings\)/);
    refused({ ...good(), host: 'https://evil.example/path?token=1' }, /does not name its service by a host name/);
    const extra = decodeLink({ ...link(good()), query: `${link(good()).query}&baseUrl=https%3A%2F%2Fevil.example` }, EXT);
    assert.ok('error' in extra && /parts a map view does not have \(baseUrl\)/.test(extra.error));
  });

  it('links for another extension or another path, and damaged links', () => {
    const other = decodeLink({ ...link(good()), authority: 'evil.extension' }, EXT);
    assert.ok('error' in other && /not for EO Imagery \(evil\.extension\)/.test(other.error));
    const path = decodeLink({ ...link(good()), path: '/signIn' }, EXT);
    assert.ok('error' in path && /open map views only/.test(path.error));
    for (const query of ['v=%%%', 'v=bm90IGpzb24', '', `v=${'A'.repeat(70_000)}`]) {
      const got = decodeLink({ ...link(good()), query }, EXT);
      assert.ok('error' in got, query.slice(0, 20));
    }
  });

  it('a view of another version, or no view at all', () => {
    assert.ok('error' in checkView({ ...good(), eoView: 2 }));
    assert.ok('error' in checkView(null));
    assert.ok('error' in checkView([]));
    assert.ok('error' in readViewFile('{"eoView": 1,'));
  });

  it('at most 200 layers', () => {
    const layers = Array.from({ length: 201 }, (_, i) => ({ kind: 'aoi', id: `a${i}` }));
    refused({ ...good(), layers }, /more than 200 layers/);
  });
});
