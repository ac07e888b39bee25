/**
 * Imagery bytes: archive items' data and visual COGs and AOI mosaics, by HTTP ranges. These
 * live on the service's own host, so they need the Authorization header like its API (only
 * the quick-look thumbnails are public).
 */
import { notFound } from '../errors';
import { dataCogSpec, visualCogSpec } from '../imagery/scene';
import { mosaicPath } from '../imagery/paths';
import { itemScene, mosaicScene } from '../imagery/scenes';
import { layoutFor, serveCog } from '../imagery/serve';
import type { Req, Route } from '../router';
import { pathId } from '../validate';
import { COLLECTION_DEFS } from '../world/archive';
import { ownAoi } from './common';

function rangeHeader(r: Req): string | undefined {
  const h = r.headers.range;
  return Array.isArray(h) ? h.join(',') : h;
}

function itemRow(r: Req) {
  const cid = pathId(r.params.cid, 'cid');
  const c = COLLECTION_DEFS.findIndex((d) => d.id === cid);
  if (c < 0) throw notFound('collection', cid);
  const id = pathId(r.params.id, 'id');
  const row = r.app.world.archive.get(id);
  if (!row || row.c !== c) throw notFound('item', id);
  return row;
}

export const imageryRoutes: Route[] = [
  {
    method: 'GET',
    path: '/assets/:cid/:id/data.tif',
    handler: (r) => {
      const s = itemScene(itemRow(r));
      return serveCog(
        `${s.key}:data`,
        layoutFor(`${s.key}:data`, () => dataCogSpec(s)),
        rangeHeader(r),
        r.method === 'HEAD',
      );
    },
  },
  {
    method: 'GET',
    path: '/assets/:cid/:id/visual.tif',
    handler: (r) => {
      const s = itemScene(itemRow(r));
      return serveCog(
        `${s.key}:visual`,
        layoutFor(`${s.key}:visual`, () => visualCogSpec(s)),
        rangeHeader(r),
        r.method === 'HEAD',
      );
    },
  },
  {
    method: 'GET',
    path: '/assets/aois/:aoi_id/mosaics/:file',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const file = pathId(r.params.file, 'file');
      const date = /^(\d{4}-\d{2}-\d{2})\.tif$/.exec(file)?.[1];
      const asset = date && r.app.state.assets.find((a) => a.aoi_id === aoi.aoi_id && a.visualization_id === '' && a.date === date);
      if (!date || !asset || asset.path !== mosaicPath(aoi, date)) throw notFound('mosaic', file);
      const s = mosaicScene(aoi, date);
      return serveCog(
        `${s.key}:data`,
        layoutFor(`${s.key}:data`, () => dataCogSpec(s)),
        rangeHeader(r),
        r.method === 'HEAD',
      );
    },
  },
];
