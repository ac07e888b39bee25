/**
 * A seasonal mosaic's data COG carries the scene classification band after the reflectances.
 * Its tiles are computed a strip of rows at a time when streamed: every strip's pixels must be
 * what the scene model says of that pixel (DNs and SCL code), whichever strip computed them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byteChunks, cogLayout } from '../../../src/sandbox/imagery/cogWriter';
import { dataCogSpec, pixelTruth } from '../../../src/sandbox/imagery/scene';
import { mosaicScene } from '../../../src/sandbox/imagery/scenes';

const LON = -120.5036;
const LAT = 36.7045;
const ring = (r: number): [number, number][] => [
  [LON - r, LAT - r],
  [LON + r, LAT - r],
  [LON + r, LAT + r],
  [LON - r, LAT + r],
  [LON - r, LAT - r],
];
const owner = {
  aoi_id: 'scl-tiles-test',
  satellite_id: 'sentinel-2',
  geometry: { type: 'Polygon' as const, coordinates: [ring(0.02)] },
  centroid: [LON, LAT] as [number, number],
  seasonal: { kind: 'fields' as const, cloudy: { '2025-06-01': 40 } },
};

describe('seasonal mosaics: the SCL band in strips', () => {
  const scene = mosaicScene(owner, '2025-06-01');
  const spec = dataCogSpec(scene);
  const layout = cogLayout(spec);
  const nb = spec.bands;
  const T = spec.tileSize;

  it('the data COG has the reflectances and SCL, and is streamed in several strips per tile', () => {
    assert.equal(scene.scl, true);
    assert.equal(nb, scene.bands.length + 1);
    const l0 = layout.levels[layout.levels.length - 1];
    const chunks = [...byteChunks(layout, l0.dataStart, l0.dataStart + layout.slotBytes)];
    assert.ok(chunks.length > 8, `one tile came in ${chunks.length} chunks`);
  });

  it('every pixel sampled across the strips of the first full-resolution tile is the model’s pixel', () => {
    const l = layout.levels[0];
    const bytes = Buffer.concat([...byteChunks(layout, l.dataStart, l.dataStart + layout.slotBytes)]).subarray(4, 4 + layout.tileBytes);
    const samples = new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    let inside = 0;
    for (const row of [0, 1, 5, 37, 100, 128, Math.min(T, l.height) - 1]) {
      for (const col of [0, 3, 64, 129, Math.min(T, l.width) - 1]) {
        const truth = pixelTruth(scene, col, row);
        const at = (row * T + col) * nb;
        const got = Array.from(samples.subarray(at, at + nb));
        assert.deepEqual(got, [...truth.dn, truth.scl], `pixel (${col}, ${row})`);
        if (truth.dn[0] !== 0) inside++;
      }
    }
    assert.ok(inside > 10, `${inside} sampled pixels inside the footprint`);
  });
});
