/**
 * How an insight run lives on the sandbox clock, and what it produces. Pure functions of a
 * stored run, the world and `now`: queued, then running with rising progress, then success
 * (outputs listed) or failed (the reason decided when the run was created).
 */
import type { Block, Insight, InsightOutput, InputValue } from '../api/records';
import { absolutePath } from './imagery/paths';
import type { AoiRec, State } from './state';
import type { InsightRec } from './state';
import { isoOffset } from './timefmt';
import { T } from './transitions';
import { BLOCK_RATES } from './world/blocks';

/** Tokens for a run: the block's rate per km² times the AOI's area, at least 1 (the OpenAPI's integer). */
export function runCost(aoi: Pick<AoiRec, 'area_in_sq_m'>, blockName: string): number {
  return Math.max(1, Math.round((aoi.area_in_sq_m / 1e6) * (BLOCK_RATES[blockName] ?? 1)));
}

/** Where the run stands at `now`. A failing run stops halfway through its running time. */
export function runPhase(rec: Pick<InsightRec, 't0' | 'failure'>, now: number): { status: 'queued' | 'running' | 'success' | 'failed'; progress: number } {
  const e = now - rec.t0;
  if (e < T.insightQueued) return { status: 'queued', progress: 0 };
  const runFor = T.insight - T.insightQueued;
  const failAt = T.insightQueued + runFor / 2;
  if (rec.failure && e >= failAt) return { status: 'failed', progress: 50 };
  if (e >= T.insight) return { status: 'success', progress: 100 };
  return { status: 'running', progress: Math.min(99, Math.floor(((e - T.insightQueued) / runFor) * 100)) };
}

/** The storage URL of one output: a file on the sandbox host, readable without the API token. */
export function outputUrl(base: string, runId: string, o: { name: string; format: string }): string {
  return `${base}/outputs/${encodeURIComponent(runId)}/${encodeURIComponent(o.name)}.${o.format === 'vector' ? 'geojson' : 'tif'}`;
}

export function blockOf(blocks: readonly Block[], rec: Pick<InsightRec, 'block'>): Block | undefined {
  return blocks.find((b) => b.spec.name === rec.block.name && b.spec.version === rec.block.version);
}

/** The run as the list serves it (the OpenAPI's list item). */
export function runView(rec: InsightRec, block: Block | undefined, base: string, now: number): Insight {
  const phase = runPhase(rec, now);
  const output: InsightOutput[] =
    phase.status === 'success'
      ? (block?.spec.outputs ?? []).map((o) => ({
          name: o.name,
          format: o.format,
          type: o.type,
          description: o.description,
          value: outputUrl(base, rec.id, o),
          properties: structuredClone(o.properties ?? {}),
        }))
      : [];
  return {
    id: rec.id,
    name: rec.name,
    status: phase.status,
    progress: phase.progress,
    ...(phase.status === 'failed' ? { err_msg: rec.failure } : {}),
    estimated_time_in_min: Math.ceil(T.insight / 60_000),
    ...(phase.status === 'success' ? { cost: rec.cost ?? 0 } : {}),
    // Seeded runs keep their mosaics' host-relative paths; a client sees them absolute.
    input: rec.input.map((v) => (v.stac_url ? { ...v, stac_url: absolutePath(v.stac_url, base) } : v)),
    output,
    metadata: rec.metadata ?? {},
    aoi_id: rec.aoi_id,
    created_at: isoOffset(rec.t0),
    created_by: rec.created_by ?? rec.owner,
  };
}

/**
 * Why inputs that passed the request checks cannot be satisfied, or undefined when they can:
 * a mosaic without the bands the block needs, an earlier run that has not succeeded or never
 * produced the named output.
 */
export function unsatisfiable(state: State, blocks: readonly Block[], base: string, block: Block, input: InputValue[], now: number): string | undefined {
  for (const v of input) {
    const def = block.spec.inputs.find((d) => d.name === v.name);
    const src = v.asset_source;
    if (!def || !src) continue;
    if (src.type === 'raw_mosaic') {
      const asset = state.assets.find((a) => a.id === src.id);
      const need = def.properties?.bands ?? [];
      const missing = asset ? need.filter((b) => !asset.band_list.includes(b)) : [];
      if (asset && missing.length > 0) {
        return `input ${v.name}: asset ${asset.name} has no band ${missing.join(', ')} (it has ${asset.band_list.join(', ')}); the block needs ${need.join(', ')}`;
      }
    } else if (src.type === 'model_output') {
      const prior = state.insights.find((x) => x.id === src.id);
      if (!prior || prior.deleted_at) return `input ${v.name}: insight ${src.id} no longer exists`;
      const phase = runPhase(prior, now);
      if (phase.status !== 'success') return `input ${v.name}: insight ${prior.name} has not succeeded (it is ${phase.status})`;
      const outs = (blockOf(blocks, prior)?.spec.outputs ?? []).map((o) => outputUrl(base, prior.id, o));
      const known = outs.some((u) => sameOutput(u, v.value ?? ''));
      if (!known) return `input ${v.name}: ${v.value ?? '(no value)'} is not an output of insight ${prior.name}`;
    }
  }
  return undefined;
}

/** Output URLs compared by path: the sandbox may have moved to another port since the run. */
function sameOutput(a: string, b: string): boolean {
  const path = (u: string): string => {
    try {
      return new URL(u).pathname;
    } catch {
      return u;
    }
  };
  return path(a) === path(b);
}

/**
 * A vector output: polygons inside the AOI, one per class the output declares (or one), each
 * a square around a point between the AOI's centroid and a vertex of its ring.
 */
export function vectorOutput(
  aoi: Pick<AoiRec, 'geometry' | 'centroid' | 'name'>,
  runId: string,
  outputName: string,
  classes: readonly { name: string; value: number | string }[],
): unknown {
  const ring = aoi.geometry.coordinates[0];
  const [cx, cy] = aoi.centroid;
  const list = classes.length > 0 ? classes : [{ name: outputName, value: 1 }];
  const features = list.map((c, k) => {
    const v = ring[(k * 2 + 1) % Math.max(1, ring.length - 1)];
    const px = cx + (v[0] - cx) * 0.45;
    const py = cy + (v[1] - cy) * 0.45;
    const hx = Math.abs(v[0] - cx) * 0.12 + 1e-4;
    const hy = Math.abs(v[1] - cy) * 0.12 + 1e-4;
    const sq = [
      [px - hx, py - hy],
      [px + hx, py - hy],
      [px + hx, py + hy],
      [px - hx, py + hy],
      [px - hx, py - hy],
    ];
    return {
      type: 'Feature',
      id: `${runId}-${k + 1}`,
      geometry: { type: 'Polygon', coordinates: [sq.map(([x, y]) => [round6(x), round6(y)])] },
      properties: { class: c.name, value: c.value, output: outputName, aoi: aoi.name },
    };
  });
  return { type: 'FeatureCollection', features };
}

const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;
