/**
 * Tool: one archive scene as a person reads it: title, date, platform, cloud, resolution,
 * angles, footprint bbox, its assets by name and type (no file links: they may be signed),
 * and its STAC URL.
 */
import { l10n } from 'vscode';
import { Fields, itemRefs } from './input';
import { stacItemUrl } from '../panels/stacUrl';
import { answer, dataNotice, dayOf, measure, quoted, row } from './text';
import { tool, type ToolServices } from './tool';

export const describeItemTool = (services: ToolServices) =>
  tool<{ collection: string; id: string }>({
    kind: 'reads',
    action: l10n.t('Describe an archive scene'),
    read: (input) => {
      const f = new Fields(input);
      const [ref] = itemRefs(f, 'item');
      return f.done(ref ?? { collection: '', id: '' });
    },
    progress: (r) => l10n.t('Reading archive scene {0}…', r.id),
    run: async (ref) => {
      const client = await services.connection.getClient();
      const item = await client.archives.item(ref.collection, ref.id);
      const p = item.properties ?? { datetime: null };
      const assets = Object.entries(item.assets ?? {}).map(([key, a]) =>
        row(
          `- ${quoted(key)}`,
          a.title ? quoted(a.title) : undefined,
          a.type ? quoted(a.type) : undefined,
          a.roles?.length ? quoted(a.roles.join(', ')) : undefined,
        ),
      );
      return answer(
        dataNotice(),
        l10n.t('Archive scene {0}', quoted(p.title || item.id)),
        row(
          l10n.t('acquired {0}', dayOf(p.datetime)),
          l10n.t('collection {0}', quoted(item.collection)),
          p.platform ? l10n.t('platform {0}', quoted(p.platform)) : undefined,
          p.constellation ? l10n.t('constellation {0}', quoted(p.constellation)) : undefined,
        ),
        row(
          p['eo:cloud_cover'] !== undefined ? l10n.t('cloud cover {0}', measure(p['eo:cloud_cover'], ' %') ?? quoted(p['eo:cloud_cover'])) : undefined,
          measure(p.gsd, ' m GSD'),
          p['view:off_nadir'] !== undefined ? l10n.t('off-nadir {0}', measure(p['view:off_nadir'], '°') ?? '?') : undefined,
          p['view:sun_elevation'] !== undefined ? l10n.t('sun elevation {0}', measure(p['view:sun_elevation'], '°') ?? '?') : undefined,
          p['rd:product_level'] ? l10n.t('product level {0}', quoted(p['rd:product_level'])) : undefined,
        ),
        p.description ? l10n.t('Description: {0}', quoted(p.description)) : undefined,
        item.bbox
          ? l10n.t('Footprint bbox (west, south, east, north): {0}', item.bbox.map((n) => (typeof n === 'number' ? n.toFixed(4) : '?')).join(', '))
          : undefined,
        assets.length ? l10n.t('Assets ({0}), by key:', assets.length) : l10n.t('No assets listed.'),
        ...assets,
        l10n.t('STAC URL: {0}', stacItemUrl(client.baseUrl, ref)),
        l10n.t('Reference for ordering: {0}', quoted(`${item.collection}/${item.id}`)),
      );
    },
  });
