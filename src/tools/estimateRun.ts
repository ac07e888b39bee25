/** Tool: the tokens an insight run would cost; nothing is run. */
import { l10n } from 'vscode';
import { isNotSupported } from '../api';
import { formatTokens, notSupportedMessage } from '../commands/insights/runInsight';
import { readRunInput, runRequestOf, type RunInput } from './insightRun';
import { quoted } from './text';
import { tool, type ToolServices } from './tool';
import { TOOLS } from './toolIds';

export const estimateRunTool = (services: ToolServices) =>
  tool<RunInput>({
    kind: 'reads',
    action: l10n.t('Estimate an insight run'),
    read: readRunInput,
    progress: (i) => l10n.t('Estimating the run of {0}…', i.file),
    run: async (input) => {
      const p = await runRequestOf(services, input, 'estimate');
      if (!p.ok) return p.reason;
      const { client, aoi, body } = p.value;
      const tokens = await client.insightRuns.estimate(aoi.aoi_id, body).catch((err: unknown) => {
        // A service without insight runs (beyond the interface): a fact to state.
        if (isNotSupported(err)) return undefined;
        throw err;
      });
      if (tokens === undefined) return notSupportedMessage();
      return l10n.t(
        "Running {0} (block {1} {2}) on AOI {3} would cost about {4} tokens. Nothing was run. To run it, call {5}: the person confirms the cost in EO Imagery's own dialog.",
        quoted(body.name),
        quoted(body.block.name),
        quoted(body.block.version),
        quoted(aoi.name),
        formatTokens(tokens),
        TOOLS.startRun,
      );
    },
  });
