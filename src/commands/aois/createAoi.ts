/**
 * Create AOI, the one flow behind both entry points (a shape drawn on the map, the GeoJSON
 * file in the editor). The service makes an AOI from images, not from a bare polygon
 * (docs/service-interface.md, "Create an AOI"): so the polygon is searched for imagery of
 * the chosen satellite, the person picks the images (date, cloud cover, satellite, with the
 * thumbnail as the row's icon where the item has one), and only then is the AOI created,
 * with the collection's `provider` and the picked `item_ids`. Sent once.
 */
import vscode = require('vscode');
import type { EoClient } from '../../api/client';
import { imagerySearchRequest } from '../../api/imagerySearch';
import type { Aoi, ArchiveItem, Polygon, Satellite } from '../../api/records';
import { km2 } from '../../format';
import { geodesicArea } from '../../geo/area';
import type { ExtensionServices } from '../../services';

/** What the entry point already knows; whatever is missing is asked for. */
export interface AoiDraft {
  polygon: Polygon;
  /** Where the polygon came from, for the log ("the map", a file URI). */
  source: string;
  name?: string;
  description?: string;
  projectId?: string;
  satelliteId?: string;
}

/** Images offered per search: enough to choose from, few enough to read. */
export const IMAGE_CHOICES = 100;

export interface ImageChoice extends vscode.QuickPickItem {
  item: ArchiveItem;
}

/** One row per image: the date first, cloud cover with its unit, the satellite by name. */
export function imageChoice(item: ArchiveItem, sat: Satellite): ImageChoice {
  const p = item.properties ?? {};
  const when = typeof p.datetime === 'string' ? p.datetime.slice(0, 10) : 'Undated';
  const cloud = typeof p['eo:cloud_cover'] === 'number' ? `${Math.round(p['eo:cloud_cover'])} % cloud` : 'cloud cover unknown';
  const thumb = Object.values(item.assets ?? {}).find((a) => a.roles?.includes('thumbnail') && /^https?:\/\//.test(a.href));
  return {
    label: when,
    description: `${cloud} · ${sat.name || sat.id}`,
    detail: item.id,
    iconPath: thumb ? vscode.Uri.parse(thumb.href) : new vscode.ThemeIcon('file-media'),
    item,
  };
}

/** Newest first: the picture a person most likely wants is the latest clear one. */
function byDateDesc(a: ArchiveItem, b: ArchiveItem): number {
  const da = a.properties?.datetime ?? '';
  const db = b.properties?.datetime ?? '';
  return da < db ? 1 : da > db ? -1 : 0;
}

/**
 * Walks the person through naming, project, satellite, images and confirmation, then
 * creates the AOI. Resolves with the AOI, or undefined when cancelled or refused (said).
 * Service errors reject, for the caller to show where the person is looking.
 */
export async function createAoi(services: ExtensionServices, draft: AoiDraft): Promise<Aoi | undefined> {
  const { ui } = services;
  const client: EoClient = await services.connection.getClient();
  const area = km2(geodesicArea(draft.polygon));

  const name = draft.name?.trim() || (await ui.input({
    title: `Create AOI (${area})`, prompt: 'Name of the new AOI', ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'A name is required.'),
  }))?.trim();
  if (!name) return undefined;
  const title = `Create AOI "${name}" (${area})`;

  let projectId = draft.projectId;
  let projectName = projectId ?? '';
  if (!projectId) {
    const projects = client.projects.listPage({ pageNum: 1, pageSize: 100 }).then((p) =>
      p.items.map((x) => ({ label: x.title || x.name, description: x.id, id: x.id })));
    const project = await ui.pick(projects, { title: `${title}: project`, placeHolder: 'Project', ignoreFocusOut: true });
    if (!project) return undefined;
    projectId = project.id;
    projectName = project.label;
  }

  const satellites = await client.search.satellites();
  let sat = satellites.find((s) => s.id === draft.satelliteId);
  if (!sat) {
    const picked = await ui.pick(
      satellites.map((s) => ({ label: s.name || s.id, description: `${s.gsd !== undefined ? `${s.gsd} m · ` : ''}${s.provider ?? ''}`, detail: s.id, sat: s })),
      { title: `${title}: satellite`, placeHolder: 'Satellite whose images make the AOI', ignoreFocusOut: true },
    );
    if (!picked) return undefined;
    sat = picked.sat;
  }
  const chosenSat = sat;
  const provider = chosenSat.collections[0]?.provider ?? chosenSat.provider;
  if (!provider) {
    await ui.message('error', `The service names no provider for ${chosenSat.name || chosenSat.id}, so an AOI cannot be made from its images. Pick another satellite.`, {});
    return undefined;
  }

  const found = client.search
    .imagery(imagerySearchRequest({ satellites: [chosenSat], geometry: draft.polygon, limit: IMAGE_CHOICES }))
    .then((r) => r.items.sort(byDateDesc).map((i) => imageChoice(i, chosenSat)));
  const images = await ui.pickMany(found, {
    title: `${title}: images`, placeHolder: `${chosenSat.name || chosenSat.id} images over the area, newest first: pick the ones the AOI is made of`,
    matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true,
  });
  if (images === undefined) return undefined;
  if (images.length === 0) {
    const none = (await found).length === 0;
    await ui.message(none ? 'error' : 'warning', none
      ? `No ${chosenSat.name || chosenSat.id} images cover this area, so no AOI can be made from it. Try another satellite or a larger shape.`
      : 'Pick at least one image: an AOI is made of the images it holds.', {});
    return undefined;
  }

  const ok = await ui.message('info',
    `Create AOI "${name}" of ${area} in ${projectName} from ${images.length} ${chosenSat.name || chosenSat.id} image(s)?`,
    { modal: true }, 'Create');
  if (ok !== 'Create') return undefined;
  const aoi = await client.aois.create({
    name, description: draft.description?.trim() ?? '', project_id: projectId, satellite_id: chosenSat.id,
    provider, geometry: draft.polygon, item_ids: images.map((i) => i.item.id),
  });
  services.log.info(`Created AOI ${aoi.aoi_id} from ${draft.source} with ${images.length} image(s)`);
  return aoi;
}
