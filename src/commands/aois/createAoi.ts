/**
 * Create AOI, the one flow behind both entry points (a shape drawn on the map, the GeoJSON
 * file in the editor). The service makes an AOI from images, not from a bare polygon
 * (docs/service-interface.md, "Create an AOI"): so the polygon is searched for imagery of
 * the chosen satellite, the person picks the images (date, cloud cover, satellite, with the
 * thumbnail as the row's icon where the item has one), and only then is the AOI created,
 * with the collection's `provider` and the picked `item_ids`. Sent once.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api/client';
import { imagerySearchRequest } from '../../api/imagerySearch';
import type { Aoi, ArchiveItem, Polygon, Satellite } from '../../api/records';
import { km2 } from '../../format';
import { geodesicArea } from '../../geo/area';
import type { ExtensionServices } from '../../services';
import { inputStepVia, pickStepVia } from '../../ui/prompts';
import { isBack } from '../../ui/stepPrompts';
import { noteUnreadable } from '../../ui/unreadable';

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
  const when = typeof p.datetime === 'string' ? p.datetime.slice(0, 10) : l10n.t('Undated');
  const cloud = typeof p['eo:cloud_cover'] === 'number' ? l10n.t('{0} % cloud', Math.round(p['eo:cloud_cover'])) : l10n.t('cloud cover unknown');
  const thumb = Object.values(item.assets ?? {}).find((a) => a.roles?.includes('thumbnail') && /^https?:\/\//.test(a.href));
  return {
    label: when,
    description: l10n.t('{0} · {1}', cloud, sat.name || sat.id),
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

/** The project the AOI goes in, picked from the first 100. */
async function askProject(
  services: ExtensionServices,
  client: EoClient,
  title: string,
  position: { step: number; totalSteps: number; canGoBack: boolean },
): Promise<{ id: string; name: string } | undefined> {
  const projects = (await client.projects.listPage({ pageNum: 1, pageSize: 100 })).items.map((x) => ({
    label: x.title || x.name,
    description: x.id,
    id: x.id,
  }));
  const project = await pickStepVia(services.ui, projects, {
    title: l10n.t('{0}: project', title),
    ...position,
    placeHolder: l10n.t('Project'),
    ignoreFocusOut: true,
  });
  return project && !isBack(project) ? { id: project.id, name: project.label } : undefined;
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

  // The steps still to ask are known from the draft before the first one: the total never changes.
  const asks = { name: !draft.name?.trim(), project: !draft.projectId, satellite: !draft.satelliteId };
  const totalSteps = Number(asks.name) + Number(asks.project) + Number(asks.satellite) + 1;
  let step = 0;
  const position = () => ({ step: ++step, totalSteps, canGoBack: false });

  let name = draft.name?.trim();
  if (!name) {
    const typed = await inputStepVia(ui, {
      title: l10n.t('Create AOI ({0})', area),
      ...position(),
      prompt: l10n.t('Name of the new AOI'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : l10n.t('A name is required.')),
    });
    name = typeof typed === 'string' ? typed.trim() : undefined;
  }
  if (!name) return undefined;
  const title = l10n.t('Create AOI "{0}" ({1})', name, area);

  const project = draft.projectId ? { id: draft.projectId, name: draft.projectId } : await askProject(services, client, title, position());
  if (!project) return undefined;
  const { id: projectId, name: projectName } = project;

  const satellites = await client.search.satellites();
  let sat = satellites.find((s) => s.id === draft.satelliteId);
  if (!sat) {
    const picked = await pickStepVia(
      ui,
      satellites.map((s) => ({ label: s.name || s.id, description: `${s.gsd !== undefined ? `${s.gsd} m · ` : ''}${s.provider ?? ''}`, detail: s.id, sat: s })),
      { title: l10n.t('{0}: satellite', title), ...position(), placeHolder: l10n.t('Satellite whose images make the AOI'), ignoreFocusOut: true },
    );
    if (!picked || isBack(picked)) return undefined;
    sat = picked.sat;
  }
  const chosenSat = sat;
  const provider = chosenSat.collections[0]?.provider ?? chosenSat.provider;
  if (!provider) {
    await ui.message(
      'error',
      l10n.t('The service names no provider for {0}, so an AOI cannot be made from its images. Pick another satellite.', chosenSat.name || chosenSat.id),
      {},
    );
    return undefined;
  }

  const found = client.search.imagery(imagerySearchRequest({ satellites: [chosenSat], geometry: draft.polygon, limit: IMAGE_CHOICES })).then((r) => {
    noteUnreadable(ui, l10n.t('images'), r);
    return r.items.sort(byDateDesc).map((i) => imageChoice(i, chosenSat));
  });
  // a multi-select pick has no step counter of its own: the title carries it
  const images = await ui.pickMany(found, {
    title: l10n.t('{0}: images ({1}/{2})', title, ++step, totalSteps),
    placeHolder: l10n.t('{0} images over the area, newest first: pick the ones the AOI is made of', chosenSat.name || chosenSat.id),
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (images === undefined) return undefined;
  if (images.length === 0) {
    const none = (await found).length === 0;
    await ui.message(
      none ? 'error' : 'warning',
      none
        ? l10n.t('No {0} images cover this area, so no AOI can be made from it. Try another satellite or a larger shape.', chosenSat.name || chosenSat.id)
        : l10n.t('Pick at least one image: an AOI is made of the images it holds.'),
      {},
    );
    return undefined;
  }

  const create = l10n.t('Create');
  const ok = await ui.message(
    'info',
    images.length === 1
      ? l10n.t('Create AOI "{0}" of {1} in {2} from 1 {3} image?', name, area, projectName, chosenSat.name || chosenSat.id)
      : l10n.t('Create AOI "{0}" of {1} in {2} from {3} {4} images?', name, area, projectName, images.length, chosenSat.name || chosenSat.id),
    { modal: true },
    create,
  );
  if (ok !== create) return undefined;
  const aoi = await client.aois.create({
    name,
    description: draft.description?.trim() ?? '',
    project_id: projectId,
    satellite_id: chosenSat.id,
    provider,
    geometry: draft.polygon,
    item_ids: images.map((i) => i.item.id),
  });
  services.log.info(`Created AOI ${aoi.aoi_id} from ${draft.source} with ${images.length} image(s)`);
  return aoi;
}
