/**
 * "Show Pending…" (the status bar's "EO: N pending"): what the watcher follows, in words with
 * its progress; picking one shows it where it lives; Check Now and Stop Following… at the end.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { dateTime } from '../../format';
import { runCommand } from '../../ui/runCommand';
import type { StoppedDownload } from '../../watch/stoppedDownloads';
import type { Pending } from '../../watch/watcher';
import { megabytes } from '../catalog/downloadProgress';
import type { CommandServices } from '../services';

type Choice = vscode.QuickPickItem & ({ pending: Pending } | { stopped: StoppedDownload } | { act: 'check' | 'stop' });

const ICONS: Record<Pending['ref']['kind'], string> = {
  orderItem: 'package',
  delivery: 'cloud-upload',
  download: 'cloud-download',
  insightRun: 'beaker',
  job: 'run-all',
};

/** One row: the name, its status in words (with progress), the kind and since when. */
export function pendingItem(p: Pending): vscode.QuickPickItem {
  const name = p.snapshot?.name ?? l10n.t('{0} (not read yet)', p.noun);
  const where = !p.hint.where ? undefined : p.ref.kind === 'download' ? l10n.t('of {0}', p.hint.where) : l10n.t('on {0}', p.hint.where);
  return {
    label: name,
    iconPath: new vscode.ThemeIcon(ICONS[p.ref.kind]),
    description: p.snapshot?.words ?? l10n.t('waiting for the first check'),
    detail: [p.noun, where, l10n.t('followed since {0}', dateTime(new Date(p.ref.since).toISOString()))].filter(Boolean).join(' · '),
  };
}

/** A download that stopped with bytes kept: what it saved, how far it got and why it stopped. */
export function stoppedItem(d: StoppedDownload): vscode.QuickPickItem {
  return {
    label: l10n.t('Saving {0}', d.what),
    iconPath: new vscode.ThemeIcon('debug-pause'),
    description: l10n.t('stopped after {0}', megabytes(d.kept)),
    detail: [d.reason, l10n.t('stopped at {0}', dateTime(new Date(d.at).toISOString())), l10n.t('pick to resume or discard')].join(' · '),
  };
}

export async function showPending(services: CommandServices): Promise<Pending | undefined> {
  const { watcher, ui } = services;
  const pending = watcher.pending();
  const stopped = watcher.stopped.list();
  const count = pending.length + stopped.length;
  if (count === 0) {
    void ui.message('info', l10n.t('Nothing is pending: no order, delivery, download or insight run is being followed.'), {});
    return undefined;
  }
  const items: Choice[] = [
    ...stopped.map((d) => ({ ...stoppedItem(d), stopped: d })),
    ...pending.map((p) => ({ ...pendingItem(p), pending: p })),
    { label: '', kind: vscode.QuickPickItemKind.Separator, act: 'check' as const },
    { label: l10n.t('Check Now'), iconPath: new vscode.ThemeIcon('refresh'), description: l10n.t('read each of them again now'), act: 'check' as const },
    {
      label: l10n.t('Stop Following…'),
      iconPath: new vscode.ThemeIcon('eye-closed'),
      description: l10n.t('no more checks or notifications for the ones you pick'),
      act: 'stop' as const,
    },
  ];
  const picked = await ui.pick(items, {
    title: count === 1 ? l10n.t('EO Imagery: 1 pending') : l10n.t('EO Imagery: {0} pending', count),
    placeHolder: l10n.t('Pick one to show it'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  if ('act' in picked) {
    if (picked.act === 'check') watcher.checkNow();
    else await stopFollowing(services, pending);
    return undefined;
  }
  if ('stopped' in picked) {
    await resumeOrDiscard(services, picked.stopped);
    return undefined;
  }
  await showWhere(services, picked.pending);
  return picked.pending;
}

/** Resume (first, so that Enter goes on) or Discard the kept bytes; Escape leaves it listed. */
async function resumeOrDiscard(services: CommandServices, d: StoppedDownload): Promise<void> {
  const kept = megabytes(d.kept);
  const act = await services.ui.pick(
    [
      { label: l10n.t('Resume'), iconPath: new vscode.ThemeIcon('debug-continue'), description: l10n.t('goes on from {0}', kept), act: 'resume' as const },
      { label: l10n.t('Discard'), iconPath: new vscode.ThemeIcon('trash'), description: l10n.t('deletes the {0} kept', kept), act: 'discard' as const },
    ],
    { title: l10n.t('Saving {0} stopped after {1}', d.what, kept), placeHolder: d.reason },
  );
  // Taken off the list first: a Resume in its notification meanwhile then does nothing.
  if (!act || !services.watcher.stopped.take(d.id)) return;
  if (act.act === 'resume') await d.resume();
  else await d.discard();
}

async function stopFollowing(services: CommandServices, pending: Pending[]): Promise<void> {
  const chosen = await services.ui.pickMany(
    pending.map((p) => ({ ...pendingItem(p), pending: p })),
    { title: l10n.t('Stop Following'), placeHolder: l10n.t('The service goes on with them; you are no longer told when they finish') },
  );
  for (const c of chosen ?? []) services.watcher.unfollow(c.pending.ref.kind, c.pending.ref.id);
}

/** Where a pending thing is shown: its row in the sidebar. */
async function showWhere(services: CommandServices, p: Pending): Promise<void> {
  const { ref } = p;
  if (ref.kind === 'insightRun' && ref.parent) await runCommand('showInsightOutputs', { aoiId: ref.parent, id: ref.id });
  else if (ref.kind === 'orderItem') await services.explorer.reveal('orderItem', ref.id, { focus: true, expand: false });
  else await vscode.commands.executeCommand('eoImagery.catalog.focus');
}
