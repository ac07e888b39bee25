/** Tool: the insight blocks with their versions, or one block's inputs in words. */
import { l10n } from 'vscode';
import { isRequired } from '../insights/build';
import { findBlock, insightBlocks } from './blocks';
import { Fields } from './input';
import { answer, dataNotice, pageFooter, quoted, row, ROWS_PER_PAGE } from './text';
import { tool, type ToolServices } from './tool';
import { TOOLS } from './toolIds';

export const listBlocksTool = (services: ToolServices) =>
  tool<{ block?: string; page: number }>({
    kind: 'reads',
    action: l10n.t('List insight blocks'),
    read: (input) => {
      const f = new Fields(input);
      return f.done({ block: f.string('block', false, 200), page: f.page() });
    },
    progress: (i) => (i.block ? l10n.t('Reading the inputs of block {0}…', i.block) : l10n.t('Listing insight blocks…')),
    run: async ({ block, page }) => {
      const client = await services.connection.getClient();
      if (!block) {
        const blocks = await insightBlocks(client);
        const shown = blocks.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
        return answer(
          dataNotice(),
          l10n.t('Insight blocks (call again with "block" for one block\'s inputs):'),
          ...shown.map((b) =>
            row(
              `- ${quoted(b.display_name ?? b.name)}`,
              l10n.t('name {0}', quoted(b.name)),
              b.description ? quoted(b.description) : undefined,
              l10n.t('id {0}', quoted(b.id)),
            ),
          ),
          pageFooter({ page, shown: shown.length, total: blocks.length, hasMore: false }, l10n.t('blocks')),
        );
      }
      const found = await findBlock(client, block);
      if (!found.ok) return found.reason;
      const { spec } = found.value;
      const inputs = spec.inputs.map((d) =>
        row(
          `- ${quoted(d.name)}`,
          l10n.t('format {0}', quoted(d.format)),
          isRequired(d) ? l10n.t('required') : l10n.t('optional'),
          d.description ? quoted(d.description) : undefined,
          d.properties?.bands ? l10n.t('needs bands {0}', quoted(d.properties.bands.join(', '))) : undefined,
        ),
      );
      return answer(
        dataNotice(),
        l10n.t('Block {0} version {1}: {2} inputs.', quoted(spec.name), quoted(spec.version), spec.inputs.length),
        ...inputs,
        l10n.t(
          'To write an input file, call {0} with "block", "aoi", "asset" (feeds the raster inputs) and "values" for the others.',
          TOOLS.createInsightInput,
        ),
      );
    },
  });
