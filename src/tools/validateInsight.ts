/** Tool: an insight file's problems against its block spec, in words with line numbers (the Problems view's checks). */
import { l10n } from 'vscode';
import { Fields } from './input';
import { openInsightFile } from './insightFile';
import { answer, dataNotice, quoted } from './text';
import { tool, type ToolServices } from './tool';

export const validateInsightTool = (services: ToolServices) =>
  tool<{ file: string }>({
    kind: 'reads',
    action: l10n.t('Validate an insight input'),
    read: (input) => {
      const f = new Fields(input);
      return f.done({ file: f.string('file', true, 1000) });
    },
    progress: (i) => l10n.t('Validating {0}…', i.file),
    run: async ({ file }) => {
      const opened = await openInsightFile(file);
      if (!opened.ok) return opened.reason;
      const doc = opened.value;
      const found = await services.diagnostics.validate(doc);
      const name = quoted(doc.uri.path.split('/').pop() ?? file);
      const lines = found.map((d) => {
        const line = doc.positionAt(d.offset).line + 1;
        const kind = d.severity === 'error' ? l10n.t('error') : d.severity === 'warning' ? l10n.t('warning') : l10n.t('note');
        return `- ${l10n.t('line {0} ({1}): {2}', line, kind, quoted(d.message, 400))}`;
      });
      const errors = found.filter((d) => d.severity === 'error').length;
      return answer(
        dataNotice(),
        errors === 0
          ? l10n.t('{0}: no problems against the block spec.', name)
          : errors === 1
            ? l10n.t('{0}: 1 problem.', name)
            : l10n.t('{0}: {1} problems.', name, errors),
        ...lines,
      );
    },
  });
