// A runnable insight input for the integration suites: the first seeded AOI with an asset that
// has the bands water-extent reads, and a `.insight.json` file for it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { collect, type Aoi, type Asset, type EoClient } from '../../../src/api';
import { workspaceUri } from './run';

/** The first AOI with a B03/B08/B11 asset that has a file. */
export async function waterExtentAoi(client: EoClient): Promise<{ aoi: Aoi; asset: Asset }> {
  for (const aoi of await collect(client.aois.iterate({}, { pageSize: 100 }))) {
    const asset = (await collect(client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 }))).find(
      (x) => ['B03', 'B08', 'B11'].every((b) => x.band_list.includes(b)) && x.path,
    );
    if (asset) return { aoi, asset };
  }
  assert.fail('the sandbox seeds no AOI with a B03/B08/B11 asset');
}

/** Writes `<name>.insight.json` in the workspace: water-extent 0.9.1 on `asset`. */
export async function writeWaterExtent(name: string, asset: Asset): Promise<vscode.Uri> {
  const uri = workspaceUri(`${name}.insight.json`);
  const doc = {
    name,
    block: { name: 'water-extent', version: '0.9.1' },
    input: [
      { format: 'raster', name: 'image', type: 'url', description: 'Mosaic', stac_url: asset.path, asset_source: { id: asset.id, type: 'raw_mosaic' } },
      { format: 'number', name: 'threshold', type: 'number', description: 'NDWI threshold', value: '0.25' },
      { format: 'boolean', name: 'include_wetlands', type: 'boolean', description: 'Wetlands', value: 'false' },
    ],
  };
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(doc, null, 2), 'utf8'));
  return uri;
}
