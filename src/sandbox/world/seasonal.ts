/**
 * AOIs with a long record, for charts of an index over time: two years of mosaics, about one
 * every four weeks, over fields whose crops green up and dry off with the season and over a
 * reservoir whose water rises in spring and is drawn down in autumn (a little lower each
 * year). Some dates are cloudy; their mosaics carry Sentinel-2's scene classification band
 * (`SCL`), which marks the clouds, as every mosaic of these AOIs does.
 *
 * The places sit on the synthetic landscape where it has what they need (src/sandbox/imagery/
 * landscape.ts): the fields in a 6 km cell with no lake or town, the reservoir over a lake's
 * eastern shore, so that the shoreline crosses the AOI as the level moves.
 */
import type { Polygon, Position } from '../../api/records';
import { geodesicArea, polygonCentroid } from '../../geo/area';
import { mosaicPath } from '../imagery/paths';
import { SCL_BAND } from '../imagery/scene';
import type { Rng } from '../prng';
import type { AoiRec, AssetRec, ProjectRec, SeasonalStyle, State, User } from '../state';
import { dateOnly, isoZ, spaceMicro } from '../timefmt';
import { satelliteById } from './satellites';

type SeasonalKind = SeasonalStyle['kind'];

interface SeasonalPlace {
  name: string;
  kind: SeasonalKind;
  lon: number;
  lat: number;
  /** Radius in km: about 10 km² each. */
  radiusKm: number;
  /** Index into the user's projects (agri-monitoring, water-resources). */
  project: number;
}

export const SEASONAL_PLACES: readonly SeasonalPlace[] = [
  { name: 'Kings River fields (two seasons)', kind: 'fields', lon: -120.5036, lat: 36.7045, radiusKm: 1.8, project: 0 },
  { name: 'Lake Mead shoreline (two seasons)', kind: 'reservoir', lon: -114.7661, lat: 36.1645, radiusKm: 1.8, project: 1 },
];

/** Mosaics per seasonal AOI, and the days between two. */
export const SEASONAL_DATES = 26;
const STEP_DAYS = 28;
/** Which of the dates (oldest first) are cloudy, and how much. */
const CLOUDY: readonly (readonly [number, number])[] = [
  [3, 35],
  [8, 85],
  [12, 55],
  [17, 100],
  [22, 25],
];

const DAY = 86_400_000;

/**
 * The reservoir's lakes' extent on a date, against their full size: highest in late spring,
 * lowest in late autumn, and each year a little lower than the one before.
 */
export function reservoirLevel(date: string): number {
  const t = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(t)) return 1;
  const year = new Date(t).getUTCFullYear();
  const doy = (t - Date.UTC(year, 0, 1)) / DAY;
  const seasonal = 0.17 * Math.cos((2 * Math.PI * (doy - 140)) / 365.25);
  const trend = -0.04 * ((t - Date.UTC(2020, 0, 1)) / (365.25 * DAY) - 6);
  return Math.max(0.45, Math.min(1.1, 0.82 + seasonal + trend));
}

function circle(p: SeasonalPlace): Polygon {
  const ring: Position[] = [];
  const n = 12;
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    const dLat = (p.radiusKm * Math.sin(a)) / 111.32;
    const dLon = (p.radiusKm * Math.cos(a)) / (111.32 * Math.cos((p.lat * Math.PI) / 180));
    ring.push([Math.round((p.lon + dLon) * 1e5) / 1e5, Math.round((p.lat + dLat) * 1e5) / 1e5]);
  }
  ring.push([ring[0][0], ring[0][1]]);
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * Alice's seasonal AOIs, appended after everything else is seeded (their draws come from a
 * stream of their own, so the rest of the world does not move).
 */
export function seedSeasonal(state: State, user: User, projects: readonly ProjectRec[], now0: number, rng: Rng): void {
  if (user.key !== 'alice') return;
  for (const place of SEASONAL_PLACES) {
    const geometry = circle(place);
    const sat = 'sentinel-2';
    const last = Math.floor((now0 - 12 * DAY) / DAY) * DAY;
    const dates = Array.from({ length: SEASONAL_DATES }, (_, k) => dateOnly(last - (SEASONAL_DATES - 1 - k) * STEP_DAYS * DAY));
    const cloudy: Record<string, number> = {};
    for (const [k, cover] of CLOUDY) cloudy[dates[k]] = cover;
    const t0 = last - (SEASONAL_DATES * STEP_DAYS + 5) * DAY;
    const bands = satelliteById(sat)?.bands.map((b) => b.name) ?? [];
    const aoi: AoiRec = {
      aoi_id: rng.uuid(),
      name: place.name,
      description: place.kind === 'fields' ? 'farmland area of interest, two growing seasons' : 'reservoir area of interest, two years of water levels',
      satellite_id: sat,
      project_id: projects[place.project].id,
      images: { mosaics: SEASONAL_DATES },
      eo_bands: bands,
      geometry,
      progress: 100,
      status: 'success',
      is_favourite: false,
      created_at: isoZ(t0),
      updated_at: isoZ(t0),
      user_id: user.id,
      area_in_sq_m: Math.round(geodesicArea(geometry) * 100) / 100,
      centroid: polygonCentroid(geometry),
      t0,
      seasonal: { kind: place.kind, cloudy },
    };
    state.aois.push(aoi);
    dates.forEach((date, k) => {
      const created = t0 + 1000 * (k + 1);
      const cloud = cloudy[date];
      state.assets.push({
        id: rng.uuid(),
        aoi_id: aoi.aoi_id,
        visualization_id: '',
        name: `Mosaic ${date}`,
        description: cloud ? `Mosaic of ${aoi.name}, ${cloud} % cloud (marked in ${SCL_BAND})` : `Cloud-free mosaic of ${aoi.name}`,
        asset_type: 'mosaic',
        band_list: [...bands, SCL_BAND],
        centroid: aoi.centroid,
        geometry,
        area_in_sq_m: aoi.area_in_sq_m,
        date,
        path: mosaicPath(aoi, date),
        progress: 100,
        status: 'success',
        created_at: spaceMicro(created),
        updated_at: spaceMicro(created),
        t0: created,
      } satisfies AssetRec);
    });
  }
}
