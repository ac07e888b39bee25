import vscode = require('vscode');
import { safeText } from '../safeText';

export type Field = readonly [label: string, value: string | number | undefined | null];

/** An empty markdown tooltip that runs nothing and renders no HTML or icons. */
function inert(): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.supportHtml = false;
  md.supportThemeIcons = false;
  md.isTrusted = false;
  return md;
}

/**
 * A markdown tooltip: a bold title and one line per key field. All its text goes through
 * `safeText` (one line each, bounded, every markdown character escaped), so a record's name can
 * never inject markdown, links or commands.
 */
export function recordTooltip(title: string, fields: readonly Field[]): vscode.MarkdownString {
  const md = inert();
  md.appendMarkdown(`**${safeText(title, 'markdown')}**\n\n`);
  for (const [label, value] of fields) {
    if (value === undefined || value === null || value === '') continue;
    md.appendMarkdown(`${safeText(label, 'markdown')}: ${safeText(value, 'markdown')}  \n`);
  }
  return md;
}

/**
 * A tooltip for an error row: an optional bold heading, the error's message as plain text
 * (it can carry the server's words), and the way forward.
 */
export function messageTooltip(heading: string | undefined, message: string, next: string): vscode.MarkdownString {
  const md = inert();
  if (heading) md.appendMarkdown(`**${safeText(heading, 'markdown')}**\n\n`);
  md.appendMarkdown(`${safeText(message, 'markdown')}\n\n${safeText(next, 'markdown')}`);
  return md;
}
