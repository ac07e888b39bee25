/**
 * Tool: put an AOI, archive scenes or one page of an archive search on the map (opens the
 * map panel), with the same targets as Show on Map and the map's own search.
 */
import { l10n } from 'vscode';
import { archiveItemFeature, mapTargetOf, type MapTarget } from '../panels/mapData';
import { resolveItems } from '../commands/orders/orderArchive';
import type { ArchiveItem } from '../api';
import { readArchiveQuery, type ArchiveQuery } from './archiveQuery';
import { Fields, itemRefs, type Read } from './input';
import { findAoi } from './lookup';
import { searchArchivePage } from './searchArchive';
import { quoted } from './text';
import { tool, type ToolServices } from './tool';

type Input = { aoi: string } | { items: { collection: string; id: string }[] } | { search: ArchiveQuery };

export function readShowInput(input: unknown): Read<Input> {
  const f = new Fields(input);
  const given = ['aoi', 'items', 'search'].filter((k) => f.raw(k) !== undefined);
  if (given.length !== 1) {
    f.problems.push(l10n.t('Give exactly one of "aoi" (an AOI name), "items" (collection/item-id references) or "search" (an archive search).'));
    return f.done({ aoi: '' });
  }
  if (given[0] === 'aoi') return f.done({ aoi: f.string('aoi', true, 200) });
  if (given[0] === 'items') return f.done({ items: itemRefs(f, 'items') });
  const q = readArchiveQuery(f.raw('search'));
  if (!q.ok) return { ok: false, problems: q.problems.map((p) => l10n.t('In "search": {0}', p)) };
  return f.done({ search: q.value });
}

function scenesTarget(items: readonly ArchiveItem[]): MapTarget {
  return {
    layer: 'archiveItems',
    features: items.map(archiveItemFeature),
    sources: items.map((i) => ({ kind: 'archiveItem' as const, collection: i.collection, id: i.id })),
  };
}

export const showOnMapTool = (services: ToolServices) =>
  tool<Input>({
    kind: 'shows',
    action: l10n.t('Show on the map'),
    read: readShowInput,
    progress: () => l10n.t('Opening the EO Imagery map…'),
    confirm: (i) => ({
      title: l10n.t('Show on the EO Imagery map'),
      message:
        'aoi' in i
          ? l10n.t('Opens the map panel and shows AOI {0}.', quoted(i.aoi))
          : 'items' in i
            ? l10n.t('Opens the map panel and shows {0} archive scene(s).', i.items.length)
            : l10n.t('Opens the map panel and shows one page of an archive search.'),
    }),
    run: async (input) => {
      const client = await services.connection.getClient();
      let target: MapTarget;
      let said: string;
      if ('aoi' in input) {
        const found = await findAoi(client, input.aoi);
        if (!found.ok) return found.reason;
        const t = mapTargetOf(found.value);
        if ('reason' in t) return t.reason;
        target = t;
        said = l10n.t('The map shows AOI {0}, zoomed to it.', quoted(found.value.name));
      } else if ('items' in input) {
        const items = (await resolveItems(client, input.items)) as ArchiveItem[];
        target = scenesTarget(items);
        said = l10n.t('The map shows {0} archive scene(s): {1}.', items.length, items.map((i) => quoted(i.properties?.title || i.id)).join(', '));
      } else {
        const found = await searchArchivePage(client, input.search);
        if (!found.ok) return found.reason;
        target = scenesTarget(found.value.items);
        said = l10n.t(
          'The map shows {0} scene footprint(s) of the archive search over {1} (page {2}).',
          found.value.items.length,
          found.value.place,
          input.search.page,
        );
      }
      services.panels.showMap().showTarget(target, { fit: true, select: target.features.length === 1 });
      return said;
    },
  });
