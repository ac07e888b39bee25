/** Paths of AOI assets: which live on the sandbox host, and how they are sent. No imports. */

/**
 * Where an AOI's mosaics live: on the sandbox host (a path relative to it), except for
 * Landsat AOIs, whose mosaics stay in the provider's bucket (`s3://`), a path the editor
 * cannot read: the case the extension explains rather than draws.
 */
export function mosaicPath(aoi: { aoi_id: string; satellite_id: string }, date: string): string {
  if (aoi.satellite_id === 'landsat-8-9') return `s3://eo-sandbox/aois/${aoi.aoi_id}/mosaics/${date}.tif`;
  return `/assets/aois/${aoi.aoi_id}/mosaics/${date}.tif`;
}

/** Relative paths are on the sandbox host: made absolute when an asset is sent. */
export function absolutePath(path: string, base: string): string {
  return path.startsWith('/') ? base + path : path;
}
