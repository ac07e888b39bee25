/** Catalogs (fulfilled imagery), deliveries to stores, downloads and their signed file URLs. */
import type { Catalog, Delivery } from '../../api/records';
import { bboxPolygon } from '../../geo/bbox';
import { geometriesIntersect } from '../../geo/intersects';
import { HttpError, badRequest, notFound } from '../errors';
import { asStoredObject } from '../objects';
import type { Req, Route } from '../router';
import type { DeliveryRec, DownloadRec } from '../state';
import { isoOffset } from '../timefmt';
import { T, catalogsOf, deliveryView, downloadStatus } from '../transitions';
import { asArray, asNumber, asObject, asString, asStringArray, opt, pathId, req } from '../validate';
import { readDatetime } from './archives';
import { isValidBbox } from '../../geo/bbox';
import { page } from './common';
import { zipOf } from '../zip';

type CatalogT = Catalog & { t: number };

function myCatalogs(r: Req): CatalogT[] {
  const out: CatalogT[] = [];
  for (const o of r.app.state.orders) {
    if (o.user_id !== r.user.id) continue;
    for (const it of o.items) out.push(...catalogsOf(o, it, r.now));
  }
  return out.sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
}

const strip = ({ t: _t, ...c }: CatalogT): Catalog => c;

/**
 * The list in use. The OpenAPI marks both lists required yet says not to use one with the
 * other, so an empty list counts as the one not in use (a client may send `[]`).
 */
function exactlyOne(b: Record<string, unknown>, where: string): { catalog_ids?: string[]; order_item_ids?: string[] } {
  const nonEmpty = (v: string[] | undefined): string[] | undefined => (v && v.length > 0 ? v : undefined);
  const c = nonEmpty(opt(b, 'catalog_ids', (v, f) => asStringArray(v, f, { max: 500 }), where));
  const i = nonEmpty(opt(b, 'order_item_ids', (v, f) => asStringArray(v, f, { max: 500 }), where));
  if ((c === undefined) === (i === undefined)) {
    throw badRequest(`${where}catalog_ids`, 'give either catalog_ids or order_item_ids, not both and not neither');
  }
  return { catalog_ids: c, order_item_ids: i };
}

/** The catalogs named by catalog ids or by order item ids (all fulfilled catalogs of those items). */
function resolveCatalogs(r: Req, sel: { catalog_ids?: string[]; order_item_ids?: string[] }, where: string): CatalogT[] {
  const mine = myCatalogs(r);
  if (sel.catalog_ids) {
    return sel.catalog_ids.map((id) => {
      const c = mine.find((x) => x.id === id);
      if (!c) throw notFound('catalog', id);
      return c;
    });
  }
  const out: CatalogT[] = [];
  for (const id of sel.order_item_ids ?? []) {
    const exists = r.app.state.orders.some((o) => o.user_id === r.user.id && o.items.some((i) => i.id === id));
    if (!exists) throw notFound('order item', id);
    const cs = mine.filter((c) => c.order_item_id === id);
    if (cs.length === 0) throw badRequest(`${where}order_item_ids`, `order item ${id} has no fulfilled imagery yet`);
    out.push(...cs);
  }
  return out;
}

function downloadView(r: Req, d: DownloadRec): { id: string; status: string; signed_url?: string } {
  const status = downloadStatus(d, r.now);
  if (status !== 'success') return { id: d.id, status };
  // A fresh URL on each read, valid for a limited time on the sandbox clock (like a presigned URL).
  const token = r.app.sign({ d: d.id, exp: r.now + T.signedUrl });
  return { id: d.id, status, signed_url: `${r.app.base}/files/${token}` };
}

export const catalogRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v0/catalogs/search',
    handler: (r) => {
      const b = asObject(r.body, 'body');
      const bbox = opt(b, 'bbox', (v, f) => {
        if (!isValidBbox(v)) throw badRequest(f, 'must be [west, south, east, north]');
        return v;
      });
      const dt = opt(b, 'datetime', (v, f) => readDatetime(asString(v, f, { max: 100 }), f));
      const list = (k: string): string[] | undefined => opt(b, k, (v, f) => asStringArray(v, f));
      const ids = list('ids');
      const itemIds = list('item_ids');
      const orderIds = list('order_ids');
      const oiIds = list('order_item_ids');
      // The OpenAPI's default is 2; the client always sends its own limit (docs/service-interface.md).
      const limit = opt(b, 'limit', (v, f) => asNumber(v, f, { min: 1, max: 100, integer: true })) ?? 2;
      const offset = opt(b, 'offset', (v, f) => asNumber(v, f, { min: 0, integer: true })) ?? 0;
      const box = bbox ? bboxPolygon(bbox) : undefined;
      const all = myCatalogs(r).filter(
        (c) =>
          (!ids || ids.includes(c.id)) &&
          (!itemIds || itemIds.includes(c.item_id ?? '')) &&
          (!orderIds || orderIds.includes(c.order_id ?? '')) &&
          (!oiIds || oiIds.includes(c.order_item_id ?? '')) &&
          (!dt || ((dt.from === undefined || c.t >= dt.from) && (dt.to === undefined || c.t <= dt.to))) &&
          (!box || (c.geometry !== undefined && geometriesIntersect(c.geometry, box))),
      );
      const { items, pagination } = page(all, offset, limit);
      return { status: 200, json: { catalogs: items.map(strip), pagination } };
    },
  },
  {
    method: 'POST',
    path: '/v0/catalogs/deliveries',
    handler: async (r) => {
      const b = asObject(r.body, 'body');
      const reqs = req(b, 'deliveries', (v, f) => asArray(v, f, { min: 1, max: 100 }));
      const created: DeliveryRec[] = [];
      reqs.forEach((x, i) => {
        const where = `deliveries[${i}].`;
        const d = asObject(x, `deliveries[${i}]`);
        const sel = exactlyOne(d, where);
        const info = req(d, 'cloud_info', (v, f) => asObject(v, f), where);
        const config = req(info, 'config', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }), `${where}cloud_info.`);
        const path = req(info, 'path', (v, f) => asString(v, f, { max: 1024 }), `${where}cloud_info.`);
        if (!r.app.state.stores.some((s) => s.id === config && s.owner === r.user.id)) throw notFound('store', config);
        for (const c of resolveCatalogs(r, sel, where)) {
          const ts = isoOffset(r.now);
          created.push({
            delivery_id: r.app.newId(),
            catalog_id: c.id,
            task_id: c.task_id,
            status: 'CREATED',
            target_path: `${path.replace(/\/?$/, '/')}${c.order_item_id}/${c.id}/`,
            cloud_delivery: { config, path },
            created_at: ts,
            updated_at: ts,
            created_by: r.user.id,
            updated_by: r.user.id,
            owner: r.user.id,
            order_item_id: c.order_item_id ?? '',
            t0: r.now,
          });
        }
      });
      r.app.state.deliveries.push(...created);
      await r.app.commit();
      return { status: 201, json: { deliveries: created.map((d) => deliveryView(d, r.now)) } };
    },
  },
  {
    method: 'GET',
    path: '/v0/catalogs/deliveries',
    handler: (r) => {
      const q = r.query;
      const f = (k: string): string | null => q.get(k);
      const list: Delivery[] = r.app.state.deliveries
        .filter((d) => d.owner === r.user.id)
        .filter(
          (d) =>
            (f('delivery_id') === null || d.delivery_id === f('delivery_id')) &&
            (f('catalog_id') === null || d.catalog_id === f('catalog_id')) &&
            (f('task_id') === null || d.task_id === f('task_id')) &&
            (f('order_item_id') === null || d.order_item_id === f('order_item_id')),
        )
        .map((d) => deliveryView(d, r.now));
      return { status: 200, json: { deliveries: list } };
    },
  },
  {
    method: 'POST',
    path: '/v0/catalogs/download',
    handler: async (r) => {
      const b = asObject(r.body, 'body');
      const cats = resolveCatalogs(r, exactlyOne(b, ''), '');
      const rec: DownloadRec = { id: r.app.newId(), owner: r.user.id, catalog_ids: cats.map((c) => c.id), t0: r.now };
      r.app.state.downloads.push(rec);
      await r.app.commit();
      return { status: 201, json: downloadView(r, rec) };
    },
  },
  {
    method: 'GET',
    path: '/v0/catalogs/download/:download_id',
    handler: (r) => {
      const id = pathId(r.params.download_id, 'download_id');
      const d = r.app.state.downloads.find((x) => x.id === id && x.owner === r.user.id && !x.aoi_id);
      if (!d) throw notFound('download', id);
      return { status: 200, json: downloadView(r, d) };
    },
  },
  {
    method: 'GET',
    path: '/v0/catalogs/:id',
    handler: (r) => {
      const id = pathId(r.params.id, 'id');
      const c = myCatalogs(r).find((x) => x.id === id);
      if (!c) throw notFound('catalog', id);
      return { status: 200, json: strip(c) };
    },
  },
  {
    // The signed URL itself is the credential, as with a cloud presigned URL.
    method: 'GET',
    path: '/files/:token',
    auth: false,
    handler: (r) => {
      const t = r.app.verify(r.params.token);
      if (!t || typeof t.d !== 'string' || typeof t.exp !== 'number') throw new HttpError(403, 'the signed URL is not valid', 'signature');
      if (r.now > t.exp) throw new HttpError(403, 'the signed URL has expired; read the download again for a fresh one', 'expired');
      const d = r.app.state.downloads.find((x) => x.id === t.d && !x.aoi_id);
      if (!d) throw notFound('download', String(t.d));
      const files = d.catalog_ids.map((cid) => ({
        name: `${cid}/manifest.json`,
        data: Buffer.from(JSON.stringify({ catalog_id: cid, download_id: d.id, note: 'EO Imagery sandbox download: imagery bytes are synthetic' }, null, 2)),
      }));
      const whole = {
        status: 200,
        raw: zipOf(files),
        contentType: 'application/zip',
        headers: { 'content-disposition': `attachment; filename="download-${d.id}.zip"` },
      };
      return asStoredObject(r.headers, whole, { modified: d.t0 });
    },
  },
];
