// ESLint rule: a user-facing string must go through l10n (`l10n.t(...)` from 'vscode' in the
// extension, from '@vscode/l10n' in the webviews) so that @vscode/l10n-dev exports it to
// l10n/bundle.l10n.json. "User-facing" means where the editor or a webview shows text: message
// and status-bar calls, prompt/tree/CodeLens fields (title, placeHolder, prompt, tooltip,
// label, description, detail…), `new TreeItem(text)`, and in webviews `button(text)`, `el(…,
// text)` children, `textContent =`, `aria-label`/`title` attributes. Strings without a letter
// (an icon `$(globe)`, punctuation, numbers) are not text, nor is a bare http(s) URL (an example).

const USER_FIELDS = new Set([
  'title',
  'placeHolder',
  'prompt',
  'tooltip',
  'label',
  'description',
  'detail',
  'saveLabel',
  'openLabel',
  'validationMessage',
  'aria-label',
  'ariaLabel',
  'textContent',
  'altText',
]);
const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage']);
const SEVERITIES = new Set(['info', 'warning', 'error']);

/** Text a person reads: at least one letter once codicons like `$(globe)` are taken out; an example URL is not. */
function isText(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') {
    return !/^https?:\/\/\S+$/.test(node.value) && /\p{L}/u.test(node.value.replace(/\$\([a-z0-9~-]+\)/g, ''));
  }
  if (node.type === 'TemplateLiteral') return node.quasis.some((q) => /\p{L}/u.test(q.value.cooked.replace(/\$\([a-z0-9~-]+\)/g, '')));
  return false;
}

function propName(node) {
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression') return propName(callee.property);
  return undefined;
}

/** Both sides of `cond ? 'a' : 'b'` and `a ?? 'b'` are shown. */
function texts(node) {
  if (!node) return [];
  if (node.type === 'ConditionalExpression') return [...texts(node.consequent), ...texts(node.alternate)];
  if (node.type === 'LogicalExpression') return [...texts(node.left), ...texts(node.right)];
  return isText(node) ? [node] : [];
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'user-facing strings go through l10n.t' },
    schema: [],
    messages: { unlocalized: 'User-facing text must go through l10n.t(…) so it can be translated: {{text}}' },
  },
  create(context) {
    const report = (nodes) => {
      for (const node of nodes) {
        const raw = context.sourceCode.getText(node);
        context.report({ node, messageId: 'unlocalized', data: { text: raw.length > 50 ? `${raw.slice(0, 47)}…` : raw } });
      }
    };
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (!name) return;
        if (MESSAGE_CALLS.has(name)) node.arguments.forEach((a) => report(texts(a)));
        // the prompt seam: ui.message(severity, text, options, ...buttons)
        else if (name === 'message' && node.arguments[0]?.type === 'Literal' && SEVERITIES.has(node.arguments[0].value)) {
          node.arguments.slice(1).forEach((a) => report(texts(a)));
        } else if (name === 'button') report(texts(node.arguments[0]));
        else if (name === 'el') node.arguments.slice(2).forEach((a) => report(texts(a)));
      },
      NewExpression(node) {
        const name = calleeName(node.callee);
        if (name === 'TreeItem') report(texts(node.arguments[0]));
      },
      Property(node) {
        if (USER_FIELDS.has(propName(node.key))) report(texts(node.value));
      },
      AssignmentExpression(node) {
        if (node.left.type === 'MemberExpression' && USER_FIELDS.has(propName(node.left.property))) report(texts(node.right));
      },
    };
  },
};
