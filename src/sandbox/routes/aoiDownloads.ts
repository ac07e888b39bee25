/**
 * Downloads of AOI assets (OpenAPI `AOICreateDownload`, `GetDownloadStatus`):
 * `{download_id, status, signed_url}`, status upper case as in the OpenAPI's example
 * (`CREATED` → `IN_PROGRESS` → `SUCCESS` on the sandbox clock). The signed URL serves the real
 * bytes: one asset as its GeoTIFF, several as a ZIP of them.
 */
import type { AoiDownload } from '../../api/records';
import { HttpError, badRequest, notFound } from '../errors';
import { asStoredObject, streamedEtag } from '../objects';
import { assetFile, type AssetFile } from '../imagery/assetFiles';
import { cachedChunks } from '../imagery/serve';
import type { Req, Route } from '../router';
import type { AoiRec, AssetRec, DownloadRec } from '../state';
import { T, downloadStatus } from '../transitions';
import { asObject, asStringArray, pathId, req } from '../validate';
import { type ZipEntry, zipStream } from '../zip';
import { ownAoi } from './common';

/** The most one archive of several assets may hold: beyond this, ask for fewer at once. */
export const MAX_ZIP_BYTES = 256 * 1024 * 1024;

const STATUS = { created: 'CREATED', in_progress: 'IN_PROGRESS', success: 'SUCCESS', failed: 'FAILED' } as const;

function view(r: Req, d: DownloadRec): AoiDownload {
  const status = STATUS[downloadStatus(d, r.now)];
  if (status !== 'SUCCESS') return { download_id: d.id, status };
  // a fresh link on each read, valid for a limited time on the sandbox clock
  const token = r.app.sign({ a: d.id, exp: r.now + T.signedUrl });
  return { download_id: d.id, status, signed_url: `${r.app.base}/aoi-files/${token}` };
}

function fileOf(r: Req, aoi: AoiRec, a: AssetRec): AssetFile {
  const vis = a.visualization_id ? r.app.state.visualizations.find((v) => v.id === a.visualization_id) : undefined;
  return assetFile(aoi, a, vis && { expression: vis.expression, expression_type: vis.expression_type });
}

/** Characters no file system takes in a name (control characters included). */
const UNSAFE = /[\\/:*?"<>|]|\p{Cc}/gu;

/** A name from the asset's own name (ids stay out of file names). */
function fileName(a: AssetRec, used: Set<string>): string {
  const base = (a.name || a.asset_type || 'asset').replace(UNSAFE, '_').trim() || 'asset';
  let name = `${base}.tif`;
  for (let i = 2; used.has(name); i++) name = `${base} (${i}).tif`;
  used.add(name);
  return name;
}

/** ASCII for old clients, the exact name in `filename*` (RFC 6266). */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const aoiDownloadRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v0/aois/:aoi_id/downloads',
    handler: async (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const b = asObject(r.body, 'body');
      const ids = req(b, 'asset_ids', (v, f) => asStringArray(v, f, { min: 1, max: 50 }));
      if (new Set(ids).size !== ids.length) throw badRequest('asset_ids', 'names an asset more than once');
      const assets = ids.map((id) => {
        const a = r.app.state.assets.find((x) => x.id === id && x.aoi_id === aoi.aoi_id);
        if (!a) throw notFound('asset', id);
        return a;
      });
      if (assets.length > 1) {
        const total = assets.reduce((n, a) => n + fileOf(r, aoi, a).layout.size, 0);
        if (total > MAX_ZIP_BYTES)
          throw badRequest(
            'asset_ids',
            `these assets come to ${Math.ceil(total / 2 ** 20)} MB, above the ${MAX_ZIP_BYTES / 2 ** 20} MB one archive may hold; download fewer at once`,
          );
      }
      const rec: DownloadRec = { id: r.app.newId(), owner: r.user.id, catalog_ids: [], aoi_id: aoi.aoi_id, asset_ids: ids, t0: r.now };
      r.app.state.downloads.push(rec);
      await r.app.commit();
      return { status: 201, json: view(r, rec) };
    },
  },
  {
    method: 'GET',
    path: '/v0/aois/:aoi_id/downloads/:download_id',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const id = pathId(r.params.download_id, 'download_id');
      const d = r.app.state.downloads.find((x) => x.id === id && x.aoi_id === aoi.aoi_id && x.owner === r.user.id);
      if (!d) throw notFound('download', id);
      return { status: 200, json: view(r, d) };
    },
  },
  {
    // The signed URL is the credential, as with a cloud presigned URL.
    method: 'GET',
    path: '/aoi-files/:token',
    auth: false,
    handler: (r) => {
      const t = r.app.verify(r.params.token);
      if (!t || typeof t.a !== 'string' || typeof t.exp !== 'number') throw new HttpError(403, 'the signed URL is not valid', 'signature');
      if (r.now > t.exp) throw new HttpError(403, 'the signed URL has expired; read the download again for a fresh one', 'expired');
      const d = r.app.state.downloads.find((x) => x.id === t.a && x.aoi_id);
      const aoi = d && r.app.state.aois.find((a) => a.aoi_id === d.aoi_id);
      if (!d || !aoi) throw notFound('download', String(t.a));
      const assets = (d.asset_ids ?? []).map((id) => r.app.state.assets.find((a) => a.id === id)).filter((a): a is AssetRec => a !== undefined);
      if (assets.length === 0) throw notFound('asset', (d.asset_ids ?? []).join(','));
      const used = new Set<string>();
      const modified = d.t0;
      if (assets.length === 1) {
        const f = fileOf(r, aoi, assets[0]);
        const name = fileName(assets[0], used);
        const whole = {
          status: 200,
          contentType: 'image/tiff; application=geotiff; profile=cloud-optimized',
          headers: { 'content-disposition': disposition(name) },
          stream: { length: f.layout.size, chunks: () => cachedChunks(f.key, f.layout, 0, f.layout.size) },
        };
        return asStoredObject(r.headers, whole, { etag: streamedEtag(f.key, f.layout.size), modified });
      }
      // Streamed as it is read: the files are computed tile by tile, never held whole.
      const entries: ZipEntry[] = assets.map((a) => {
        const f = fileOf(r, aoi, a);
        return { name: fileName(a, used), length: f.layout.size, chunks: () => cachedChunks(f.key, f.layout, 0, f.layout.size) };
      });
      const zipName = `${aoi.name.replace(UNSAFE, '_')} assets.zip`;
      const zip = zipStream(entries);
      const whole = { status: 200, stream: zip, contentType: 'application/zip', headers: { 'content-disposition': disposition(zipName) } };
      return asStoredObject(r.headers, whole, { etag: streamedEtag(`${d.id}:${(d.asset_ids ?? []).join(',')}`, zip.length), modified });
    },
  },
];
