/**
 * `POST /v0/aois/{aoi_id}/visualizations/{visualization_id}/png`: the index of a visualization
 * over the AOI's mosaic of one date, coloured by the index's colour map over the range of the
 * legend mode asked for (imagery/indexPng.ts). Errors are the JSON error body the OpenAPI
 * declares (it labels them `image/png`; they are sent as `application/json`).
 */
import type { VisualizationMode } from '../../api/records';
import { HttpError, badRequest, notFound } from '../errors';
import { renderIndexPng } from '../imagery/indexPng';
import type { Route } from '../router';
import { asEnum, asObject, asString, pathId, req } from '../validate';
import { legendRange } from './aois';
import { ownAoi } from './common';
import { savedClasses } from './visualizationStyles';

const MODES = ['dynamic', 'theoretical'] as const satisfies readonly VisualizationMode[];

/** Rendered images by request: the same question always gets the same bytes, computed once. */
const rendered = new Map<string, Buffer>();

export const visualizationPngRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v0/aois/:aoi_id/visualizations/:visualization_id/png',
    handler: async (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const visId = pathId(r.params.visualization_id, 'visualization_id');
      const vis = r.app.state.visualizations.find((v) => v.id === visId && v.aoi_id === aoi.aoi_id);
      if (!vis) throw notFound('visualization', visId);
      const b = asObject(r.body, 'body');
      const indexId = req(b, 'index_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
      const rawDate = req(b, 'date', (v, f) => asString(v, f, { nonEmpty: true, max: 20 }));
      const mode = req(b, 'visualization_mode', (v, f) => asEnum(v, f, MODES));
      const m = /^(\d{4})_(\d{2})_(\d{2})$/.exec(rawDate);
      if (!m) throw badRequest('date', `must be YYYY_MM_DD, e.g. 2024_05_06, not ${JSON.stringify(rawDate)}`);
      const date = `${m[1]}-${m[2]}-${m[3]}`;
      const idx = [...r.app.world.presets, ...r.app.state.indices.filter((i) => i.user_id === r.user.id)].find((i) => i.id === indexId);
      if (!idx) throw notFound('index', indexId);
      if (idx.id !== vis.index_id) throw badRequest('index_id', `visualization ${visId} shows index ${vis.index_id}, not ${indexId}`);
      const own = r.app.state.assets.filter((a) => a.visualization_id === vis.id);
      const dates = [...new Set(own.map((a) => a.date))].sort();
      const source = r.app.state.assets.find((a) => a.aoi_id === aoi.aoi_id && a.visualization_id === '' && a.date === date && vis.source_ids.includes(a.id));
      if (!dates.includes(date) || !source) {
        const known = dates.map((d) => d.replace(/-/g, '_')).join(', ') || 'no date';
        throw new HttpError(404, `date: visualization ${visId} has no image on ${rawDate}; its dates are ${known}`, 'date');
      }
      const range = legendRange(idx, mode);
      if (!range) {
        const has = MODES.filter((x) => legendRange(idx, x));
        throw badRequest(
          'visualization_mode',
          has.length
            ? `${idx.name} has only a ${has.join(' and ')} legend`
            : `${idx.name} is a ${idx.expression_type} index: it has no legend to colour a PNG by`,
        );
      }
      // A legend saved for this date and mode colours the picture by its classes.
      const classes = savedClasses(vis, date, mode);
      const key = `${aoi.aoi_id}/${vis.id}/${date}/${mode}/${idx.expression_type}:${idx.expression}/${idx.colormap}/${range.join(',')}/${classes ? JSON.stringify(classes.map((c) => [c.max, c.color])) : ''}`;
      let png = rendered.get(key);
      if (!png) {
        png = (
          await renderIndexPng({
            aoi: { ...aoi, geometry: aoi.geometry },
            date,
            expression: idx.expression,
            expressionType: idx.expression_type,
            colormap: idx.colormap,
            range,
            classes,
          })
        ).png;
        if (rendered.size >= 32) rendered.delete(rendered.keys().next().value as string);
        rendered.set(key, png);
      }
      return { status: 200, raw: png, contentType: 'image/png', headers: { 'cache-control': 'private, max-age=300' } };
    },
  },
];
