/**
 * Shared views: a view from the map survives the link and the file unchanged; hostile or broken
 * links and files are refused with a sentence (unknown layer kinds, bad numbers, foreign
 * extensions, extra parts), and neither form can carry a token, a file URL or a setting.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
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

  it('an insight output on the map is left out and named; the rest of the view is shared', () => {
    const output = {
      id: 'insight:aoi-1/run-1/land_cover',
      title: 'Land cover · run 1',
      source: { kind: 'insightOutput', aoiId: 'aoi-1', runId: 'run-1', output: 'land_cover' },
      render: { kind: 'classes', classes: [{ value: 1, color: '#00ff00', name: 'Forest' }], legendTitle: 'Land cover' },
    };
    const got = viewFromMap({ ...mapState, imagery: [output, mapState.imagery[0]] }, 'api.example.com');
    assert.ok('view' in got, JSON.stringify(got));
    assert.deepEqual(
      got.view.imagery.map((l) => l.title),
      ['Lake Constance 2026-06-01'],
    );
    assert.deepEqual(got.left, ['Land cover · run 1 (an insight output’s picture, which a shared view does not draw again yet)']);
  });

  it('a layer whose look a view cannot hold is left out with its title and why; the others stay', () => {
    const odd = { title: 'Mosaic 2026-06-01', source: { kind: 'asset', aoiId: 'aoi-1', id: 'm1' }, render: { kind: 'rgb', bands: ['B04', 'B03'] } };
    const got = viewFromMap({ ...mapState, imagery: [mapState.imagery[0], odd] }, 'api.example.com');
    assert.ok('view' in got, JSON.stringify(got));
    assert.equal(got.view.imagery.length, 1);
    assert.deepEqual(got.left, ['Mosaic 2026-06-01 (Imagery layer 2: a colour composite names three bands.)']);
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

describe('shared view: the compare pair and the time slider', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../schemas/eoview.schema.json'), 'utf8')) as object;
  const validate = new Ajv({ strict: false }).compile(schema);
  const s2 = (day: string): { kind: 'archiveItem'; collection: string; id: string; asset: string } => ({
    kind: 'archiveItem',
    collection: 'sentinel-2-l2a',
    id: `S2A_32TNT_${day.replaceAll('-', '')}_0_L2A`,
    asset: 'data',
  });
  const withPair: MapViewState = {
    center: [47.61, 9.43],
    zoom: 12,
    sources: {},
    imagery: [
      { id: 'url-1', title: 'Signed file', source: { kind: 'url', url: 'https://bucket.example/x.tif' } },
      { id: 'a', title: 'June', source: s2('2026-06-01') },
      { id: 'b', title: 'August', source: { kind: 'asset', aoiId: 'aoi-1', id: 'mosaic-0801' }, render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'] } },
    ],
    compare: { left: 'b', right: 'a', position: 0.3333333, mode: 'flicker' },
    timeline: {
      title: 'Lake Constance',
      date: '2026-07-01',
      frames: [
        { date: '2026-06-01', source: s2('2026-06-01'), cloudCover: 12 },
        { date: '2026-07-01', source: { kind: 'asset', aoiId: 'aoi-1', id: 'mosaic-0701' } },
        { date: '2026-08-01', source: s2('2026-08-01'), cloudCover: 80 },
      ],
    },
  };
  const shared = (state: MapViewState = withPair): SharedView => {
    const got = viewFromMap(state, 'api.example.com');
    assert.ok('view' in got, JSON.stringify(got));
    return got.view;
  };

  it('names the pair by place in the shared list (a layer left out moves the others up), with the divider and the mode', () => {
    const v = shared();
    assert.deepEqual(
      v.imagery.map((l) => l.title),
      ['June', 'August'],
    );
    assert.deepEqual(v.compare, { left: 1, right: 0, position: 0.333, mode: 'flicker' });
  });

  it('keeps the time slider’s dates by record and the date it shows', () => {
    const v = shared();
    assert.equal(v.timeline?.date, '2026-07-01');
    assert.equal(v.timeline?.title, 'Lake Constance');
    assert.deepEqual(
      v.timeline?.frames.map((f) => [f.date, f.source.kind, f.cloudCover]),
      [
        ['2026-06-01', 'archiveItem', 12],
        ['2026-07-01', 'asset', undefined],
        ['2026-08-01', 'archiveItem', 80],
      ],
    );
  });

  it('link and file: the pair and the date come back the same, and the file fits the contributed schema', () => {
    const v = shared();
    const url = new URL(encodeLink(v, EXT));
    const back = decodeLink({ scheme: 'vscode', authority: url.host, path: url.pathname, query: url.search.slice(1) }, EXT);
    assert.deepEqual(back, { ok: v });
    const text = viewFileText(v);
    assert.deepEqual(readViewFile(text), { ok: v });
    assert.equal(validate(JSON.parse(text)), true, JSON.stringify(validate.errors));
  });

  it('keeps a composite stretched per band through link and file; a view from before it opens with one range', () => {
    const perBand = { kind: 'rgb' as const, bands: ['B04', 'B03', 'B02'] as [string, string, string], percentiles: [1, 99] as [number, number], perBand: true };
    const state: MapViewState = { ...withPair, compare: undefined, imagery: [{ ...withPair.imagery[2], render: perBand }] };
    const v = shared(state);
    assert.deepEqual(v.imagery[0].render, perBand);
    const url = new URL(encodeLink(v, EXT));
    assert.deepEqual(decodeLink({ scheme: 'vscode', authority: url.host, path: url.pathname, query: url.search.slice(1) }, EXT), { ok: v });
    const text = viewFileText(v);
    assert.deepEqual(readViewFile(text), { ok: v });
    assert.equal(validate(JSON.parse(text)), true, JSON.stringify(validate.errors));
    // a file saved before the stretch mode existed: read as it is, no per band
    const old = JSON.parse(text) as { imagery: { render: Record<string, unknown> }[] };
    delete old.imagery[0].render.perBand;
    const back = readViewFile(JSON.stringify(old));
    assert.ok('ok' in back, JSON.stringify(back));
    assert.deepEqual(back.ok.imagery[0].render, { kind: 'rgb', bands: ['B04', 'B03', 'B02'], percentiles: [1, 99] });
    old.imagery[0].render.perBand = 'yes';
    assert.match(JSON.stringify(readViewFile(JSON.stringify(old))), /per band is true or false/);
  });

  it('a pair with a side that cannot be shared is left out and named; the layers stay', () => {
    const got = viewFromMap({ ...withPair, compare: { left: 'url-1', right: 'a', position: 0.5, mode: 'swipe' } }, 'api.example.com');
    assert.ok('view' in got);
    assert.equal(got.view.compare, undefined);
    assert.equal(got.view.imagery.length, 2);
    assert.ok(got.left.includes('the compare pair (one of its layers cannot be shared)'), got.left.join(' | '));
  });

  it('a time slider over pictures that cannot be shared is left out and named', () => {
    const timeline = { ...withPair.timeline!, frames: [{ date: '2026-06-01', source: { kind: 'url', url: 'https://x.example/a.tif' } }], date: '2026-06-01' };
    const got = viewFromMap({ ...withPair, timeline }, 'api.example.com');
    assert.ok('view' in got);
    assert.equal(got.view.timeline, undefined);
    assert.ok(
      got.left.some((l) => /Date 1 of the time slider is imagery of a kind that cannot be shared \(url\)/.test(l)),
      got.left.join(' | '),
    );
  });

  /** `schemaKnows`: false where the schema cannot tell (how many layers there are, calendar dates, which dates the slider has). */
  const refused = (v: unknown, pattern: RegExp, schemaKnows = true): void => {
    const got = decodeLink(link(v), EXT);
    assert.ok('error' in got, `accepted: ${JSON.stringify(v)}`);
    assert.match(got.error, pattern);
    if (schemaKnows) assert.equal(validate(v), false, `the schema accepts ${JSON.stringify(v).slice(0, 300)}`);
  };

  it('refuses a pair that is not two of the view’s layers, a divider off the map, an unknown mode', () => {
    const v = shared();
    refused(
      { ...v, compare: { ...v.compare, left: 5 } },
      /^The compare pair must name two of the view’s imagery layers by their place in the list \(1 to 2\)\.$/,
      false,
    );
    refused({ ...v, compare: { ...v.compare, right: -1 } }, /must name two of the view’s imagery layers/);
    refused({ ...v, compare: { ...v.compare, left: 0.5 } }, /must name two of the view’s imagery layers/);
    refused({ ...v, compare: { ...v.compare, position: 1.5 } }, /^The divider position must be a number from 0 to 1\.$/);
    refused({ ...v, compare: { ...v.compare, position: 'NaN' } }, /The divider position must be a number/);
    refused({ ...v, compare: { ...v.compare, mode: 'javascript:alert(1)' } }, /the mode is swipe or flicker/);
    refused({ ...v, compare: { ...v.compare, baseUrl: 'https://evil.example' } }, /^The compare pair has parts this version does not know \(baseUrl\)\.$/);
    const same = decodeLink(link({ ...v, compare: { ...v.compare, left: 0, right: 0 } }), EXT);
    assert.ok('error' in same && /names the same layer twice/.test(same.error));
  });

  it('refuses dates that are not dates, a shown date not among them, frames of other kinds, too many frames', () => {
    const v = shared();
    const t = v.timeline!;
    refused({ ...v, timeline: { ...t, date: '2026-02-30' } }, /^The time slider’s date is not a date \(YYYY-MM-DD\)\.$/, false);
    refused({ ...v, timeline: { ...t, date: '2026-09-01' } }, /^The time slider shows 2026-09-01, which is not one of its dates\.$/, false);
    refused({ ...v, timeline: { ...t, frames: [{ ...t.frames[0], date: 'yesterday' }] } }, /^Date 1 of the time slider is not a date/);
    refused({ ...v, timeline: { ...t, frames: [{ ...t.frames[0], cloudCover: 400 }] } }, /must be a number from 0 to 100/);
    refused(
      { ...v, timeline: { ...t, frames: [{ date: '2026-07-01', source: { kind: 'visualization', aoiId: 'a', id: 'b', assetId: 'c' } }] } },
      /^Date 1 of the time slider is imagery of a kind the time slider does not step through \(visualization\)\.$/,
    );
    refused({ ...v, timeline: { ...t, frames: [{ date: '2026-07-01', source: { kind: 'asset', aoiId: '../x', id: 'b' } }] } }, /not an id/);
    refused({ ...v, timeline: { ...t, frames: [] } }, /^The time slider has no dates\.$/);
    refused({ ...v, timeline: { ...t, settings: { 'eoImagery.baseUrl': 'x' } } }, /^The time slider has parts this version does not know \(settings\)\.$/);
    refused({ ...v, timeline: { ...t, frames: Array.from({ length: 201 }, () => t.frames[0]), date: t.frames[0].date } }, /more than 200 dates/);
  });
});
