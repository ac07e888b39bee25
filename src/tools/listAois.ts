/** Tool: the account's AOIs by name, with area, satellite, dates and project; ids alongside. */
import { l10n } from 'vscode';
import { km2 } from '../format';
import { Fields } from './input';
import { allAois, findProject } from './lookup';
import { nameKey } from '../nameMatch';
import { answer, dataNotice, dayOf, pageFooter, quoted, row, ROWS_PER_PAGE } from './text';
import { tool, type ToolServices } from './tool';
import { loadProjects } from '../commands/orders/common';

interface Input {
  project?: string;
  nameContains?: string;
  page: number;
}

export const listAoisTool = (services: ToolServices) =>
  tool<Input>({
    kind: 'reads',
    action: l10n.t('List AOIs'),
    read: (input) => {
      const f = new Fields(input);
      return f.done({ project: f.string('project', false, 200), nameContains: f.string('nameContains', false, 200), page: f.page() });
    },
    progress: (i) => (i.project ? l10n.t('Listing the AOIs of {0}…', i.project) : l10n.t('Listing your AOIs…')),
    run: async ({ project, nameContains, page }) => {
      const client = await services.connection.getClient();
      let projectId: string | undefined;
      if (project) {
        const found = await findProject(client, project);
        if (!found.ok) return found.reason;
        projectId = found.value.id;
      }
      const [aois, projects] = await Promise.all([allAois(client), loadProjects(client)]);
      const projectName = new Map(projects.map((p) => [p.id, p.title || p.name]));
      const wanted = nameContains ? nameKey(nameContains) : undefined;
      const matching = aois.filter((a) => (!projectId || a.project_id === projectId) && (!wanted || nameKey(a.name).includes(wanted)));
      const shown = matching.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
      const rows = shown.map((a) =>
        row(
          `- ${quoted(a.name)}`,
          km2(a.area_in_sq_m),
          l10n.t('satellite {0}', quoted(a.satellite_id)),
          l10n.t('created {0}', dayOf(a.created_at)),
          a.updated_at && dayOf(a.updated_at) !== dayOf(a.created_at) ? l10n.t('updated {0}', dayOf(a.updated_at)) : undefined,
          projectName.has(a.project_id) ? l10n.t('project {0}', quoted(projectName.get(a.project_id))) : undefined,
          l10n.t('id {0}', quoted(a.aoi_id)),
        ),
      );
      return answer(
        dataNotice(),
        l10n.t('AOIs (areas of interest); name one as "aoi" in the other EO Imagery tools:'),
        ...rows,
        pageFooter({ page, shown: rows.length, total: matching.length, hasMore: false }, l10n.t('AOIs')),
      );
    },
  });
