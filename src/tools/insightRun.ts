/**
 * What the estimate and run tools share: the file and AOI read from the input, and the run
 * request the commands make from them (`prepareRun`): validated first, on the AOI the file was
 * built for or the one named.
 */
import { l10n } from 'vscode';
import { prepareRun, type Prepared } from '../commands/insights/runInsight';
import { Fields, type Read } from './input';
import { openInsightFile } from './insightFile';
import { findAoi, type Found } from './lookup';
import type { ToolServices } from './tool';

export interface RunInput {
  file: string;
  aoi?: string;
}

export function readRunInput(input: unknown): Read<RunInput> {
  const f = new Fields(input);
  return f.done({ file: f.string('file', true, 1000), aoi: f.string('aoi', false, 200) });
}

export async function runRequestOf(services: ToolServices, input: RunInput, action: 'estimate' | 'run'): Promise<Found<Prepared>> {
  const opened = await openInsightFile(input.file);
  if (!opened.ok) return opened;
  let reason: string | undefined;
  const p = await prepareRun(services, services.diagnostics, opened.value, action, async (client) => {
    if (!input.aoi) {
      reason = l10n.t('The file was not made for an AOI by EO Imagery: give "aoi" (an AOI name).');
      return undefined;
    }
    const found = await findAoi(client, input.aoi);
    if (found.ok) return found.value;
    reason = found.reason;
    return undefined;
  });
  if (!p) return { ok: false, reason: reason ?? l10n.t('No AOI to run on.') };
  if ('reason' in p) return { ok: false, reason: p.reason };
  return { ok: true, value: p };
}
