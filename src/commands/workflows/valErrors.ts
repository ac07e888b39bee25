/**
 * A workflow's validation errors (`val_errors`) as lines a person reads, naming the components:
 * "clouds: output does not fit input (from stats to clouds): stats produces vector …". Pure:
 * the words go through the `l10n` the caller passes.
 */
import type { ValError } from '../../api/records';
import type { L10n } from '../../explorer/labels';
import { safeText } from '../../safeText';

export function valErrorLine(l10n: L10n, v: ValError): string {
  const what = v.err || l10n.t('invalid');
  const where = v.from && v.to ? l10n.t('from {0} to {1}', v.from, v.to) : v.from ? l10n.t('from {0}', v.from) : v.to ? l10n.t('to {0}', v.to) : '';
  const head = v.component_name ? l10n.t('{0}: {1}', v.component_name, what) : what;
  const withWhere = where ? l10n.t('{0} ({1})', head, where) : head;
  return v.reason ? l10n.t('{0}: {1}', withWhere, v.reason) : withWhere;
}

/** One line per error, whatever line breaks the service's words hold. */
export function valErrorLines(l10n: L10n, errors: readonly ValError[]): string[] {
  return errors.map((v) => `• ${safeText(valErrorLine(l10n, v), 'line', 300)}`);
}
