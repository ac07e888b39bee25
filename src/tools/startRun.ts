/**
 * Tool: start an insight run. It never starts one by itself: the estimate is shown in the Run
 * Insight command's own confirmation (`confirmAndRun`), and the run is sent once only if the
 * person clicks Run there.
 */
import { l10n } from 'vscode';
import { confirmAndRun, formatTokens, notSupportedMessage, type Prepared } from '../commands/insights/runInsight';
import { readRunInput, runRequestOf, type RunInput } from './insightRun';
import { answer, dataNotice, quoted } from './text';
import { tool, type ToolServices } from './tool';

export const startRunTool = (services: ToolServices) =>
  tool<RunInput>({
    kind: 'costs',
    action: l10n.t('Run an insight'),
    read: readRunInput,
    progress: () => l10n.t('Estimating the run; EO Imagery will ask you to confirm its cost…'),
    confirm: (i) => ({
      title: l10n.t('Estimate an insight run'),
      message: l10n.t('EO Imagery estimates the tokens for {0} and shows you the cost. Nothing runs unless you click Run in that dialog.', i.file),
    }),
    run: async (input) => {
      const p = await runRequestOf(services, input, 'run');
      if (!p.ok) return p.reason;
      return confirmAndRunFromChat(services, p.value);
    },
  });

async function confirmAndRunFromChat(services: ToolServices, p: Prepared): Promise<string> {
  const outcome = await confirmAndRun(services, p, l10n.t('Asked for from chat. Nothing runs unless you click Run.'));
  switch (outcome.kind) {
    case 'started':
      return answer(
        dataNotice(),
        l10n.t(
          'The person clicked Run: insight {0} started on AOI {1} for about {2} tokens. Run id {3}; follow it with the status tool.',
          quoted(p.body.name),
          quoted(p.aoi.name),
          formatTokens(outcome.tokens),
          quoted(outcome.id),
        ),
      );
    case 'declined':
      return l10n.t(
        'The person did not confirm the run (about {0} tokens): nothing was run. Do not ask again unless they say so.',
        formatTokens(outcome.tokens),
      );
    case 'unsupported':
      return notSupportedMessage();
    case 'failed':
      // The answer to the one POST was lost; the person was told what the service said.
      return answer(
        dataNotice(),
        l10n.t('The run was sent but its answer was lost ({0}). Do not call again unless the person says so.', quoted(outcome.reason)),
      );
  }
}
