import { el } from './dom';

/*
 * One notice at a time on the page. The map's imagery code is a chunk of its own, with its own
 * copy of this module, so what the copies share lives in the page: the host is marked, and the
 * notice shown is found by its class.
 */
const HOST = 'data-eo-notice-host';

/** Where notices go (the map's bottom centre, clear of its other parts); the page's bottom without one. */
export function noticeHost(h: HTMLElement): void {
  h.setAttribute(HOST, '');
}

/** A transient message at the bottom of the panel (role=status so screen readers hear it). */
export function showNotice(text: string, level: 'info' | 'error' = 'info', ms = 6000): void {
  for (const old of Array.from(document.querySelectorAll('.notice'))) old.remove();
  const host = document.querySelector<HTMLElement>(`[${HOST}]`);
  const notice = el('div', { class: `notice ${level}${host ? ' in-frame' : ''}`, role: level === 'error' ? 'alert' : 'status' }, text);
  (host ?? document.body).appendChild(notice);
  setTimeout(() => notice.remove(), ms);
}
