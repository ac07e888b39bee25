/**
 * An AOI mosaic names only its bands (`band_list`); the map describes them from the AOI's
 * satellite as an archive item's `eo:bands`/`raster:bands` describe its own: the satellite's
 * `rgb_composite` makes true colour the default look, wavelengths give the spectrum, scale and
 * offset give reflectance. Checked on every AOI of the sandbox through the real client; the
 * expected bands are the satellite record's (docs/service-interface.md, "Satellites").
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { EoClient } from '../../../src/api/client';
import type { Asset, Satellite, SatelliteBand } from '../../../src/api/records';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { mosaicScene } from '../../../src/sandbox/imagery/scenes';
import { aoiAssetSpec, satelliteBands } from '../../../src/panels/imagery/specs';
import { defaultBands, presetsFor } from '../../../media/map/imagery/presets';

let sb: SandboxHandle;
let client: EoClient;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 42 });
  client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-unit' });
});
after(async () => {
  await client.close();
  await sb.close();
});

describe('AOI mosaics described by their satellite', () => {
  it('open in true colour (the satellite’s rgb_composite), with wavelengths, scale and offset', async () => {
    const satellites = await client.search.satellites();
    const { items: aois } = await client.aois.listPage({ limit: 100 });
    let checked = 0;
    for (const aoi of aois) {
      const sat = satellites.find((s) => s.id === aoi.satellite_id);
      assert.ok(sat?.rgb_composite, `${aoi.name}: its satellite ${aoi.satellite_id} names its true-colour bands`);
      const assets: Asset[] = [];
      for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) assets.push(a);
      const mosaic = assets.find((a) => a.asset_type === 'mosaic' && !a.visualization_id && /^https?:/.test(a.path));
      if (!mosaic) continue;
      const r = aoiAssetSpec(mosaic, sat);
      assert.ok('spec' in r, `${aoi.name}: ${'note' in r ? r.note.text : ''}`);
      const { red, green, blue } = sat.rgb_composite;
      assert.deepEqual(defaultBands(r.spec.bands), [red, green, blue], `${aoi.name} (${sat.name}) opens in true colour`);
      assert.match(presetsFor(r.spec.bands)[0].label, /True colour/);
      for (const b of r.spec.bands) {
        const own: SatelliteBand | undefined = sat.bands.find((x) => x.name === b.name);
        if (!own) {
          // a band of the product that is no band of the sensor (Sentinel-2 L2A's SCL classes):
          // no wavelength and no reflectance scale are made up for it
          assert.equal(b.wavelength, undefined, `${b.name}: no wavelength`);
          assert.equal(b.scale, undefined, `${b.name}: no scale`);
          continue;
        }
        assert.equal(b.wavelength, own.wavelength / 1000, `${b.name}: the wavelength in µm`);
        assert.equal(b.scale, own.scale);
        assert.equal(b.offset, own.offset);
      }
      // the file holds what the record says: the sandbox writes its mosaics with the satellite's encoding
      const scene = mosaicScene({ aoi_id: aoi.aoi_id, satellite_id: aoi.satellite_id, geometry: aoi.geometry, centroid: aoi.centroid }, mosaic.date);
      assert.equal(scene.scale, sat.bands[0].scale);
      assert.equal(scene.offset, sat.bands[0].offset);
      checked++;
    }
    assert.ok(checked >= 5, `mosaics checked: ${checked}`);
  });

  it('without a satellite record, a mosaic still draws with its band names alone', () => {
    assert.deepEqual(satelliteBands(['B01', 'B02']), [
      { name: 'B01', commonName: undefined, wavelength: undefined, scale: undefined, offset: undefined },
      { name: 'B02', commonName: undefined, wavelength: undefined, scale: undefined, offset: undefined },
    ]);
  });

  it('reads a satellite band wavelength in nm (the OpenAPI) or in µm', () => {
    const sat: Satellite = {
      id: 's',
      name: 'S',
      collections: [],
      bands: [
        { name: 'R', wavelength: 665 },
        { name: 'N', wavelength: 0.842 },
      ],
      rgb_composite: { red: 'R', green: 'G', blue: 'B' },
    };
    const [r, n] = satelliteBands(['r', 'N'], sat);
    assert.equal(r.wavelength, 0.665);
    assert.equal(r.commonName, 'red');
    assert.equal(n.wavelength, 0.842);
  });
});
