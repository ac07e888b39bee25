import { el } from './dom';

let current: HTMLElement | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/** A transient message at the bottom of the panel (role=status so screen readers hear it). */
export function showNotice(text: string, level: 'info' | 'error' = 'info', ms = 6000): void {
  current?.remove();
  if (timer) clearTimeout(timer);
  current = el('div', { class: `notice ${level}`, role: level === 'error' ? 'alert' : 'status' }, text);
  document.body.appendChild(current);
  timer = setTimeout(() => current?.remove(), ms);
}
