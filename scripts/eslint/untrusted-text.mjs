// ESLint rule: text from outside reaches the places that parse it only through `safeText`
// (src/safeText.ts), so a service's name, a shared link's key or a model's words can never
// become a link that runs a command, markup, or an icon.
//
// - Notifications and status-bar messages: a direct `showInformationMessage`,
//   `showWarningMessage`, `showErrorMessage` or `setStatusBarMessage` takes only text that is
//   safe by construction: a literal, `l10n.t('…')` of a literal alone, or `safeText(…,
//   'notification')`. Everything else goes through the prompt seam (`services.ui.message`),
//   which makes any text safe itself.
// - Progress: `window.withProgress` only through `withProgress` of src/ui/progress.ts, which
//   makes its title and every reported message safe.
// - Markdown: `appendMarkdown(x)` and a chat stream's `markdown(x)` take a literal,
//   `l10n.t('…')` of a literal alone, `safeText(…, 'markdown')`, or a template of those;
//   `new MarkdownString(x)` takes no text, and `appendText` is not used (one escaping function).

import { calleeName, propName } from './names.mjs';

const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage']);
const MARKDOWN_CALLS = new Set(['appendMarkdown', 'markdown']);

const isLiteralText = (node) =>
  (node.type === 'Literal' && typeof node.value === 'string') || (node.type === 'TemplateLiteral' && node.expressions.length === 0);

/** `l10n.t('text')` or `vscode.l10n.t('text')` with nothing put into it. */
function isPlainL10n(node) {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || propName(node.callee.property) !== 't') return false;
  const owner = node.callee.object;
  const isL10n = (owner.type === 'Identifier' && owner.name === 'l10n') || (owner.type === 'MemberExpression' && propName(owner.property) === 'l10n');
  return isL10n && node.arguments.length === 1 && isLiteralText(node.arguments[0]);
}

/** `safeText(x, sink)` for the sink this place needs. */
function isSafeTextCall(node, sink) {
  if (node.type !== 'CallExpression' || calleeName(node.callee) !== 'safeText') return false;
  const s = node.arguments[1];
  return !!s && s.type === 'Literal' && s.value === sink;
}

function isSafe(node, sink) {
  if (!node) return true;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' || typeof node.value === 'number';
    case 'TemplateLiteral':
      return node.expressions.every((e) => isSafe(e, sink));
    case 'ConditionalExpression':
      return isSafe(node.consequent, sink) && isSafe(node.alternate, sink);
    case 'BinaryExpression':
      return node.operator === '+' && isSafe(node.left, sink) && isSafe(node.right, sink);
    case 'CallExpression':
      return isPlainL10n(node) || isSafeTextCall(node, sink);
    default:
      return false;
  }
}

const isWindow = (node) => (node.type === 'Identifier' && node.name === 'window') || (node.type === 'MemberExpression' && propName(node.property) === 'window');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'text shown in notifications, progress and markdown goes through safeText' },
    schema: [],
    messages: {
      message:
        "Text in a notification can carry a link that runs a command: show it through the prompt seam (services.ui.message), or pass a literal or safeText(text, 'notification').",
      progress: 'Show progress through withProgress from src/ui/progress.ts: it makes the title and every message safe text.',
      markdown: "Markdown from anything but a literal goes through safeText(text, 'markdown') (src/safeText.ts).",
      appendText: "Use appendMarkdown(safeText(text, 'markdown')): one escaping function for all markdown, bounded and on one line.",
      markdownCtor: "Build a MarkdownString empty and add text with appendMarkdown(safeText(text, 'markdown')).",
      alias: 'Call {{name}} where it is used, so its text can be checked: a reference kept in a variable or passed on hides what it shows.',
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (!name) return;
        if (MESSAGE_CALLS.has(name)) {
          if (!isSafe(node.arguments[0], 'notification')) context.report({ node: node.arguments[0], messageId: 'message' });
        } else if (name === 'withProgress' && node.callee.type === 'MemberExpression' && isWindow(node.callee.object)) {
          context.report({ node, messageId: 'progress' });
        } else if (MARKDOWN_CALLS.has(name) && node.callee.type === 'MemberExpression') {
          if (!isSafe(node.arguments[0], 'markdown')) context.report({ node: node.arguments[0], messageId: 'markdown' });
        } else if (name === 'appendText' && node.callee.type === 'MemberExpression') {
          context.report({ node, messageId: 'appendText' });
        }
      },
      // `const show = window.showErrorMessage; show(text)` would hide the text from the checks above.
      MemberExpression(node) {
        const name = propName(node.property);
        const shows = MESSAGE_CALLS.has(name) || name === 'withProgress';
        if (!shows || !isWindow(node.object)) return;
        if (node.parent.type === 'CallExpression' && node.parent.callee === node) return;
        context.report({ node, messageId: 'alias', data: { name } });
      },
      NewExpression(node) {
        if (calleeName(node.callee) !== 'MarkdownString') return;
        const [text] = node.arguments;
        if (text && !(text.type === 'Identifier' && text.name === 'undefined') && !isLiteralText(text))
          context.report({ node: text, messageId: 'markdownCtor' });
      },
    };
  },
};
