/**
 * An AOI from a shape drawn on the map (the page's `createAoi` request): the form's name,
 * project and satellite, then the shared flow (commands/aois/createAoi, handed in through
 * `PanelContext`): imagery over the shape, the images picked, the AOI created. It joins the
 * map's AOIs and its row is revealed in the sidebar.
 */
import { ringToGeoJson } from '../geo/antimeridian';
import { validatePolygon } from '../geo/aoiGeometry';
import type { PanelContext } from './host';
import { aoiFeature } from './mapData';
import type { MapLayers } from './mapLayers';
import type { CreateAoiParams, MapFeature } from './protocol';

/** The AOI's footprint as the map shows it; `null` when the person cancelled the choice of images. */
export async function createAoiOnMap(ctx: PanelContext, layers: MapLayers, p: CreateAoiParams): Promise<MapFeature | null> {
  const g = ringToGeoJson(p.ring);
  if (g.type !== 'Polygon') throw new Error('The shape crosses the antimeridian; an AOI must be a single Polygon.');
  const checked = validatePolygon(g);
  if (!checked.ok) throw new Error(checked.reason);
  const aoi = await ctx.createAoi({
    polygon: checked.polygon,
    source: 'the map',
    name: p.name,
    description: p.description,
    projectId: p.projectId,
    satelliteId: p.satelliteId,
  });
  if (!aoi) return null;
  const f = aoiFeature(aoi);
  layers.put({ layer: 'aois', features: [f], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, 'append');
  void ctx.revealInSidebar({ kind: 'aoi', id: aoi.aoi_id }, { focus: false });
  return f;
}
