/**
 * The hostile shared view of issue 39 (item 5), and the sandbox records it names: one AOI with
 * 1,000 assets and 200 single-asset layers on its last 200, and a time slider of 200 dates on
 * 200 other AOIs of 500 assets each (each date the first asset of its AOI). Read the way main
 * opened views, it makes 3,101 requests with the opener's token (the audit's link, 3,201):
 * every asset layer walks the listing up to its asset (9 or 10 pages: 1,900), every date its
 * AOI's first 500 assets and the AOI (1,200), and the satellites once.
 *
 * The records are added to a sandbox's state directly (the service has no way to make an AOI
 * of 1,000 assets): give it a sandbox of its own.
 */
import type { SandboxHandle } from '../../src/sandbox';
import type { AoiRec, AssetRec } from '../../src/sandbox/state';
import type { SharedView } from '../../src/commands/shareView/view';

export interface HostileView {
  view: SharedView;
  /** Distinct records the view names: its 400 assets and the 201 AOIs they are on. */
  distinctRecords: number;
}

let n = 0;
const nextId = (): string => `hostile-${(++n).toString(36)}`;

/** Adds an AOI like `like` (alice's) with `count` assets like `asset`; the new assets' ids, in listing order. */
function addAoi(sandbox: SandboxHandle, like: AoiRec, asset: AssetRec, count: number): { aoi: AoiRec; assets: string[] } {
  const aoi: AoiRec = { ...like, aoi_id: nextId(), name: `Hostile AOI ${n}` };
  sandbox.state.aois.push(aoi);
  const assets: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = nextId();
    sandbox.state.assets.push({ ...asset, id, aoi_id: aoi.aoi_id, name: `Mosaic ${i + 1}` });
    assets.push(id);
  }
  return { aoi, assets };
}

export function seedHostileView(sandbox: SandboxHandle, host: string): HostileView {
  const alice = sandbox.users.alice.id;
  const like = sandbox.state.aois.find((a) => a.user_id === alice && a.satellite_id !== 'landsat-8-9' && !a.seasonal);
  const asset = like && sandbox.state.assets.find((a) => a.aoi_id === like.aoi_id && a.asset_type === 'mosaic');
  if (!like || !asset) throw new Error('the sandbox has no AOI of alice with a mosaic to copy');
  const big = addAoi(sandbox, like, asset, 1000);
  const layers = big.assets.slice(-200).map((id) => ({ kind: 'asset' as const, aoiId: big.aoi.aoi_id, id }));
  const day = Date.UTC(2020, 0, 1);
  const frames = Array.from({ length: 200 }, (_, i) => {
    const { aoi, assets } = addAoi(sandbox, like, asset, 500);
    return { date: new Date(day + i * 86_400_000).toISOString().slice(0, 10), source: { kind: 'asset' as const, aoiId: aoi.aoi_id, id: assets[0] } };
  });
  const view: SharedView = {
    eoView: 1,
    host,
    center: { lon: 0, lat: 0 },
    zoom: 3,
    layers,
    imagery: [],
    timeline: { title: 'Hostile slider', date: frames[0].date, frames },
  };
  return { view, distinctRecords: 200 + 1 + 200 + 200 };
}
