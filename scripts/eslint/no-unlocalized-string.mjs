// ESLint rule: a user-facing string must go through l10n (`l10n.t(...)` from 'vscode' in the
// extension, from '@vscode/l10n' in the webviews) so that @vscode/l10n-dev exports it to
// l10n/bundle.l10n.json. "User-facing" means where the editor or a webview shows text: message
// and status-bar calls, prompt/tree/CodeLens fields (title, placeHolder, prompt, tooltip,
// label, description, detail…), `new TreeItem(text)`, and in webviews `button(text)`, `el(…,
// text)` children, `textContent =`, `aria-label`/`title` attributes, a view's `message =`.
// Strings without a letter (an icon `$(globe)`, punctuation, numbers) are not text, nor is a
// bare http(s) URL (an example). A `const` named in such a place is followed to what it holds:
// its initializer, and for an array the elements and whatever is pushed into it, through
// `.join()` (so `const buttons = []; buttons.push('Retry'); ui.message('error', t, {}, ...buttons)`
// and `parts.push(\`Filter: ${f}\`); view.message = parts.join(' · ')` are both caught).

import { calleeName, propName } from './names.mjs';

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
/** Assigned to, these show text too (`view.message`, a TreeView's line above its rows). */
const ASSIGNED_FIELDS = new Set([...USER_FIELDS, 'message']);
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

/** The `const` a name refers to, looked up from the scope the name is used in. */
function constOf(sourceCode, id) {
  for (let scope = sourceCode.getScope(id); scope; scope = scope.upper) {
    const v = scope.set.get(id.name);
    if (!v) continue;
    const def = v.defs[0];
    return def && def.type === 'Variable' && def.parent.kind === 'const' ? { variable: v, init: def.node.init } : undefined;
  }
  return undefined;
}

/**
 * The text literals a value can show: both sides of `cond ? 'a' : 'b'` and `a ?? 'b'`, array
 * elements and spreads, and through a `const` name (`depth` keeps a cycle from looping).
 */
function texts(node, sourceCode, depth = 0) {
  if (!node || depth > 4) return [];
  const more = (n) => texts(n, sourceCode, depth + 1);
  switch (node.type) {
    case 'ConditionalExpression':
      return [...more(node.consequent), ...more(node.alternate)];
    case 'LogicalExpression':
      return [...more(node.left), ...more(node.right)];
    case 'ArrayExpression':
      return node.elements.flatMap((e) => (e ? more(e) : []));
    case 'SpreadElement':
      return more(node.argument);
    case 'CallExpression':
      // `parts.join(' · ')`: what the parts hold is what is shown
      return node.callee.type === 'MemberExpression' && propName(node.callee.property) === 'join' ? more(node.callee.object) : [];
    case 'Identifier': {
      const found = sourceCode ? constOf(sourceCode, node) : undefined;
      if (!found) return [];
      const pushed = found.variable.references.flatMap((ref) => {
        const member = ref.identifier.parent;
        const call = member?.parent;
        const isPush = member?.type === 'MemberExpression' && member.object === ref.identifier && ['push', 'unshift'].includes(propName(member.property));
        return isPush && call?.type === 'CallExpression' && call.callee === member ? call.arguments.flatMap(more) : [];
      });
      return [...more(found.init), ...pushed];
    }
    default:
      return isText(node) ? [node] : [];
  }
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'user-facing strings go through l10n.t' },
    schema: [],
    messages: { unlocalized: 'User-facing text must go through l10n.t(…) so it can be translated: {{text}}' },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    const shown = (node) => texts(node, sourceCode);
    const seen = new Set();
    const report = (nodes) => {
      for (const node of nodes) {
        // a literal reached from two places is one problem
        if (seen.has(node)) continue;
        seen.add(node);
        const raw = context.sourceCode.getText(node);
        context.report({ node, messageId: 'unlocalized', data: { text: raw.length > 50 ? `${raw.slice(0, 47)}…` : raw } });
      }
    };
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (!name) return;
        if (MESSAGE_CALLS.has(name)) node.arguments.forEach((a) => report(shown(a)));
        // the prompt seam: ui.message(severity, text, options, ...buttons)
        else if (name === 'message' && node.arguments[0]?.type === 'Literal' && SEVERITIES.has(node.arguments[0].value)) {
          node.arguments.slice(1).forEach((a) => report(shown(a)));
        } else if (name === 'button') report(shown(node.arguments[0]));
        else if (name === 'el') node.arguments.slice(2).forEach((a) => report(shown(a)));
      },
      NewExpression(node) {
        const name = calleeName(node.callee);
        if (name === 'TreeItem') report(shown(node.arguments[0]));
      },
      Property(node) {
        if (USER_FIELDS.has(propName(node.key))) report(shown(node.value));
      },
      AssignmentExpression(node) {
        if (node.left.type === 'MemberExpression' && ASSIGNED_FIELDS.has(propName(node.left.property))) report(shown(node.right));
      },
    };
  },
};
