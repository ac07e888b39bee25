/** Tool: the account's projects, by title, with their names and ids for later calls. */
import { l10n } from 'vscode';
import { Fields } from './input';
import { answer, dataNotice, pageFooter, quoted, row, ROWS_PER_PAGE, timeOf } from './text';
import { tool, type ToolServices } from './tool';

export const listProjectsTool = (services: ToolServices) =>
  tool<{ page: number }>({
    kind: 'reads',
    action: l10n.t('List projects'),
    read: (input) => {
      const f = new Fields(input);
      return f.done({ page: f.page() });
    },
    progress: () => l10n.t('Listing your EO Imagery projects…'),
    run: async ({ page }) => {
      const client = await services.connection.getClient();
      const res = await client.projects.listPage({ pageNum: page, pageSize: ROWS_PER_PAGE });
      const rows = res.items.map((p) =>
        row(
          `- ${quoted(p.title || p.name)}`,
          p.name && p.name !== p.title ? l10n.t('name {0}', quoted(p.name)) : undefined,
          typeof p.members_count === 'number' ? l10n.t('{0} members', p.members_count) : undefined,
          l10n.t('created {0}', timeOf(p.created_at)),
          l10n.t('id {0}', quoted(p.id)),
        ),
      );
      return answer(
        dataNotice(),
        l10n.t('Projects (orders are billed to one; AOIs belong to one):'),
        ...rows,
        pageFooter({ page, shown: rows.length, total: res.total, hasMore: false }, l10n.t('projects')),
      );
    },
  });
