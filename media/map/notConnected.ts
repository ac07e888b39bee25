/** The banner over the search panel while no service is connected, with the ways back. */
import * as l10n from '@vscode/l10n';
import type { FromMapMessage } from '../../src/panels/mapMessages';
import { button, el } from '../shared/dom';

/** `configured`: a service is set up but signed out (else the sandbox stopped, or none is set up). */
export function notConnectedBanner(configured: boolean, post: (m: FromMapMessage) => void): HTMLElement {
  return el(
    'div',
    { class: 'eo-banner', role: 'alert', id: 'not-connected' },
    el(
      'p',
      {},
      configured
        ? l10n.t('Not signed in: the map shows what it loaded before and cannot search.')
        : l10n.t('No EO Imagery service is connected (the sandbox was stopped, or you signed out): the map shows what it loaded before and cannot search.'),
    ),
    el(
      'div',
      { class: 'row' },
      button(l10n.t('Sign In…'), () => post({ type: 'connect', how: 'signIn' }), { id: 'banner-sign-in' }),
      button(l10n.t('Try the Sandbox'), () => post({ type: 'connect', how: 'trySandbox' }), { class: 'secondary', id: 'banner-sandbox' }),
    ),
  );
}
