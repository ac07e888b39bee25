/**
 * An insight run's raster output, read by GDAL: a valid COG on the sandbox host over the AOI
 * (the grid of the mosaic the run read), one uint8 band whose values are exactly the classes
 * its `discretization` declares, water where the mosaic's ground is water.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EoClient, type Insight } from '../../../src/api';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { OUTPUT_NODATA, outputScene, outputValueAt } from '../../../src/sandbox/insightRaster';
import { BLOCKS } from '../../../src/sandbox/world/blocks';

const run = promisify(execFile);
const PY = '/usr/bin/python3';
// Output files need the token like every path of the service.
const gdal = async (cmd: string, args: string[]): Promise<string> =>
  (
    await run(cmd, args, {
      env: { ...process.env, GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR', GDAL_HTTP_HEADERS: `Authorization: Bearer ${sb.tokens.alice}` },
      maxBuffer: 16 * 1024 * 1024,
    })
  ).stdout;

let sb: SandboxHandle;
let client: EoClient;

before(async () => {
  try {
    await run('gdalinfo', ['--version']);
  } catch (e) {
    throw new Error(`GDAL is required for the imagery tests (Debian: gdal-bin python3-gdal): ${(e as Error).message}`);
  }
  sb = await startSandbox({ port: 0, speed: 0 });
  client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'test' });
});
after(async () => {
  await client?.close();
  await sb?.close();
});

async function seededRun(block: string): Promise<Insight> {
  for (const a of (await client.aois.listPage({ limit: 100 })).items) {
    const r = (await client.insightRuns.list(a.aoi_id)).find((x) => x.status === 'success' && x.block?.name === block);
    if (r) return r;
  }
  throw new Error(`no finished ${block} run in the seeded world`);
}

describe('insight raster outputs, read by GDAL', () => {
  for (const [block, output] of [
    ['water-extent', 'water_mask'],
    ['land-cover-classification', 'land_cover'],
  ] as const) {
    it(`${block}: ${output} is a valid COG over the AOI holding the declared classes, pixel for pixel`, async () => {
      const r = await seededRun(block);
      const out = r.output.find((o) => o.name === output);
      assert.ok(out && out.format === 'raster');
      const url = `/vsicurl/${out.value}`;
      assert.match(await gdal(PY, ['-m', 'osgeo_utils.samples.validate_cloud_optimized_geotiff', url]), /is a valid cloud optimized GeoTIFF/);
      const info = JSON.parse(await gdal('gdalinfo', ['-json', url])) as {
        size: [number, number];
        bands: { type: string; noDataValue?: number }[];
        coordinateSystem: { wkt: string };
      };
      assert.equal(info.bands.length, 1);
      assert.equal(info.bands[0].type, 'Byte');
      assert.equal(info.bands[0].noDataValue, OUTPUT_NODATA);
      assert.match(info.coordinateSystem.wkt, /UTM zone/);

      const rec = sb.state.insights.find((x) => x.id === r.id);
      const aoi = sb.state.aois.find((a) => a.aoi_id === r.aoi_id);
      assert.ok(rec && aoi);
      const scene = outputScene(aoi, rec, sb.state.assets);
      assert.deepEqual(info.size, [scene.width, scene.height], 'the grid of the mosaic the run read');
      const def = BLOCKS.find((b) => b.spec.name === block)?.spec.outputs?.find((o) => o.name === output);
      assert.ok(def);
      const declared = new Set((out.properties.discretization?.classes ?? []).map((c) => Number(c.value)));
      assert.ok(
        Object.keys(out.properties.visualisation?.discrete ?? {}).every((v) => declared.has(Number(v))),
        'visualisation and discretization name the same classes',
      );
      const seen = new Set<number>();
      let inside = 0;
      for (let k = 0; k < 24; k++) {
        const col = Math.floor((((k * 7919) % 997) / 997) * scene.width);
        const row = Math.floor((((k * 104729 + 13) % 991) / 991) * scene.height);
        const got = Number((await gdal('gdallocationinfo', ['-valonly', url, String(col), String(row)])).trim());
        const want = outputValueAt(scene, def, col, row);
        assert.equal(got, want ?? OUTPUT_NODATA, `pixel (${col}, ${row})`);
        if (want !== undefined) {
          inside++;
          seen.add(want);
          assert.ok(declared.has(want), `value ${want} is one of the declared classes ${[...declared].join(', ')}`);
        }
      }
      assert.ok(inside > 0, 'some sampled pixels fall inside the AOI');
      assert.ok(seen.size >= 1);
    });
  }

  it('an output file of no run is 404', async () => {
    const res = await fetch(`${sb.url}/outputs/not-a-run/water_mask.tif`, { headers: { authorization: `Bearer ${sb.tokens.alice}` } });
    assert.equal(res.status, 404);
  });

  it("an output file needs the token, and only the run's owner reads it", async () => {
    const out = (await seededRun('water-extent')).output.find((o) => o.name === 'water_mask');
    assert.ok(out);
    const as = (token?: string) => fetch(out.value, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), range: 'bytes=0-15' } });
    assert.equal((await as()).status, 401, 'no token');
    assert.equal((await as(sb.tokens.bob)).status, 404, "another user's run does not exist for bob");
    assert.equal((await as(sb.tokens.alice)).status, 206);
  });
});
