/**
 * DOM building without HTML strings: every value from the service goes in as text
 * (`textContent`) or as a checked attribute, so markup in it is shown, never parsed.
 */
import * as l10n from '@vscode/l10n';
import { isWebUrl } from '../../src/panels/protocol';

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((ev: Event) => void)>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') {
      node.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    } else if (k === 'class') {
      node.className = String(v);
    } else if (k === 'href' || k === 'src') {
      // links are set by `link()` after a scheme check; never from here
      throw new Error(`set ${k} through link()/image helpers`);
    } else if (/^on/i.test(k)) {
      throw new Error(`refusing event-handler attribute ${k}`);
    } else {
      node.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(node, ...children);
  return node;
}

export function append(node: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/**
 * A link for an http(s) URL that asks the extension to open it (webviews cannot navigate);
 * anything else (`javascript:`, `data:`, relative) is shown as plain text.
 */
export function link(url: unknown, text: string, open: (url: string) => void, ariaLabel?: string): HTMLElement {
  if (!isWebUrl(url)) return el('span', { class: 'nolink', title: l10n.t('Not an http(s) link') }, text);
  const a = el('a', { title: url, 'aria-label': ariaLabel }, text);
  a.href = url;
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    open(url);
  });
  return a;
}

export function button(label: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = el('button', { type: 'button', ...attrs }, label);
  b.addEventListener('click', onClick);
  return b;
}
