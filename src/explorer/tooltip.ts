import vscode = require('vscode');

export type Field = readonly [label: string, value: string | number | undefined | null];

/**
 * A markdown tooltip: a bold title and one line per key field. Service text goes through
 * `appendText`, so a record's name can never inject markdown, links or commands.
 */
export function recordTooltip(title: string, fields: readonly Field[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportHtml = false;
  md.isTrusted = false;
  md.appendMarkdown('**');
  md.appendText(title);
  md.appendMarkdown('**\n\n');
  for (const [label, value] of fields) {
    if (value === undefined || value === null || value === '') continue;
    md.appendMarkdown(`${label}: `);
    md.appendText(String(value));
    md.appendMarkdown('  \n');
  }
  return md;
}

/**
 * A tooltip for an error row: an optional bold heading, the error's message as plain text
 * (it can carry the server's words), and the way forward.
 */
export function messageTooltip(heading: string | undefined, message: string, next: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportHtml = false;
  md.isTrusted = false;
  if (heading) {
    md.appendMarkdown('**');
    md.appendText(heading);
    md.appendMarkdown('**\n\n');
  }
  md.appendText(message);
  md.appendMarkdown('\n\n');
  md.appendText(next);
  return md;
}
