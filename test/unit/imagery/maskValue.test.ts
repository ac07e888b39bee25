/**
 * The no-data value of an AOI-masked clip whose file declares none: never a value some pixel
 * inside the AOI holds, so GDAL reads every pixel inside as data. The GeoTIFF writer's
 * GDAL_NODATA tag is checked with gdalinfo for the NaN case.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { maskValue } from '../../../src/raster/maskValue';
import { encodeGeoTiff } from '../../../src/raster/tiffEncode';

const all = (n: number) => new Uint8Array(n).fill(1);

describe('the no-data value of a masked clip', () => {
  it('is 0 when no pixel inside the AOI holds 0, even if pixels outside do', () => {
    const band = Uint16Array.from([0, 5, 7, 0]);
    assert.equal(maskValue([band], Uint8Array.from([0, 1, 1, 0])), 0);
  });

  it("is the type's largest value when a pixel inside holds 0 and none holds the largest", () => {
    assert.equal(maskValue([Uint16Array.from([0, 5, 7])], all(3)), 65535);
    assert.equal(maskValue([Uint8Array.from([0, 5]), Uint8Array.from([9, 254])], all(2)), 255);
    assert.equal(maskValue([Int16Array.from([0, -3])], all(2)), 32767);
  });

  it('is the smallest value when 0 and the largest occur inside (signed types)', () => {
    assert.equal(maskValue([Int16Array.from([0, 32767, 5])], all(3)), -32768);
  });

  it('looks for a free value when both ends of the type occur inside, in every band', () => {
    const values = Array.from({ length: 256 }, (_, v) => v).filter((v) => v !== 17 && v !== 200);
    const a = Uint8Array.from(values);
    const b = Uint8Array.from(values.map((v) => (v === 0 ? 200 : v)));
    assert.equal(maskValue([a, b], all(values.length)), 17);
  });

  it('is undefined when every value of the type occurs inside', () => {
    const a = Uint8Array.from(Array.from({ length: 256 }, (_, v) => v));
    assert.equal(maskValue([a], all(256)), undefined);
  });

  it('is NaN for floating-point data holding 0 inside, and GDAL reads it as the no-data value', () => {
    const band = Float32Array.from([0, 0.25, 0.5, 0.75]);
    const nd = maskValue([band], Uint8Array.from([1, 1, 1, 0]));
    assert.ok(Number.isNaN(nd));
    band[3] = nd as number;
    const dir = mkdtempSync(join(tmpdir(), 'eo-mask-'));
    try {
      const file = join(dir, 'clip.tif');
      writeFileSync(
        file,
        new Uint8Array(
          encodeGeoTiff({
            width: 2,
            height: 2,
            bands: [band],
            epsg: 32633,
            originX: 500000,
            originY: 4000000,
            pixelWidth: 10,
            pixelHeight: 10,
            nodata: nd,
            names: ['B1'],
            scale: [1],
            offset: [0],
          }),
        ),
      );
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', file], { encoding: 'utf8' })) as {
        bands: Array<{ noDataValue?: unknown; minimum?: number; maximum?: number }>;
      };
      assert.equal(info.bands[0].noDataValue, 'NaN');
      // the 0 inside is data: the statistics start at it
      assert.equal(info.bands[0].minimum, 0);
      assert.equal(info.bands[0].maximum, 0.5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
