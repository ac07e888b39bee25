import { el } from './dom';

let current: HTMLElement | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let host: HTMLElement | undefined;

/** Where notices go (the map's bottom centre, clear of its other parts); the page's bottom without one. */
export function noticeHost(h: HTMLElement): void {
  host = h;
}

/** A transient message at the bottom of the panel (role=status so screen readers hear it). */
export function showNotice(text: string, level: 'info' | 'error' = 'info', ms = 6000): void {
  current?.remove();
  if (timer) clearTimeout(timer);
  current = el('div', { class: `notice ${level}${host ? ' in-frame' : ''}`, role: level === 'error' ? 'alert' : 'status' }, text);
  (host ?? document.body).appendChild(current);
  timer = setTimeout(() => current?.remove(), ms);
}
