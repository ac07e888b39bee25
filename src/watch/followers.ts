/**
 * One follower per kind of thing the watcher follows: how to read it (one request, shared by
 * the things it answers for), where it stands in words, and what to say and offer when it is
 * final. Adding a kind is one entry here and one in `WATCH_KINDS`.
 * No vscode: the words go through @vscode/l10n, the next actions are command names.
 */
import * as l10n from '@vscode/l10n';
import type { EoClient } from '../api';
import { runState, runStatusText } from '../api/insightRunState';
import type { Delivery, Download, Insight, Job, OrderItem } from '../api/records';
import { durationSeconds, percentOf, taskBlock, taskFailureText, workState } from '../api/workflowState';
import { isObj } from '../api/shape';
import type { ArgsOf, CommandName } from '../commandIds';
import { dateTime, duration, enumLabel } from '../format';
import { safeText } from '../safeText';
import type { WatchKind, WatchRef } from './followed';

export type Outcome = 'pending' | 'done' | 'failed';

/** Where one followed thing stands. */
export interface Snapshot {
  readonly outcome: Outcome;
  /** What a person calls it: a name, never an id. */
  readonly name: string;
  /** Its status in words, with progress where the service gives it. */
  readonly words: string;
  /** 0–100, when the service says. */
  readonly progress?: number;
}

/** A button on the finish notification: a command of the extension with its arguments. */
export type NextAction = { [K in CommandName]: { readonly title: string; readonly command: K; readonly args: ArgsOf<K> } }[CommandName];

export interface Finish {
  readonly severity: 'info' | 'error';
  readonly text: string;
  readonly actions: readonly NextAction[];
}

/** What a caller of `follow()` knows that the record may not say (kept in memory only). */
export interface Hint {
  /** Where it happens, for the sentence: an insight run's AOI name. */
  readonly where?: string;
}

export interface Follower<R> {
  readonly kind: WatchKind;
  /** The kind in words, for the pending list ("Order item"). */
  noun(): string;
  /** Things with the same key are read by one request. */
  shareKey(ref: WatchRef): string;
  /**
   * One request for the things of one share key: the latest record of each, keyed by id;
   * a missing id means the service no longer has it. A 404 of a single read may be thrown.
   */
  read(client: EoClient, refs: readonly WatchRef[], signal: AbortSignal): Promise<Map<string, R>>;
  snapshot(record: R): Snapshot;
  finish(record: R, s: Snapshot, ref: WatchRef, hint: Hint): Finish;
}

/**
 * A name or reason from the service inside a finish sentence: one line, and short enough that
 * the rest of the sentence is still read (the prompt seam makes the whole text safe).
 */
const named = (v: string): string => safeText(v, 'line', 100);
const reason = (v: string): string => safeText(v, 'line', 300);

async function single<R>(refs: readonly WatchRef[], get: (id: string) => Promise<R>): Promise<Map<string, R>> {
  const [ref] = refs;
  return new Map([[ref.id, await get(ref.id)]]);
}

const orderItems: Follower<OrderItem> = {
  kind: 'orderItem',
  noun: () => l10n.t('Order item'),
  shareKey: (ref) => `orderItem:${ref.id}`,
  read: (client, refs, signal) => single(refs, (id) => client.orderItems.get(id, { signal })),
  snapshot(item) {
    const s = item.status;
    const outcome: Outcome = s === 'FULFILLED' || s === 'PARTIALLY_FULFILLED' ? 'done' : s === 'FAILED' || s === 'CANCELLED' ? 'failed' : 'pending';
    const paid = item.payment_status && item.payment_status !== 'PAID' ? l10n.t('payment {0}', enumLabel(item.payment_status).toLowerCase()) : undefined;
    const words = [enumLabel(s), outcome === 'pending' ? paid : undefined].filter(Boolean).join(' · ');
    return { outcome, name: item.name || l10n.t('an unnamed order item'), words };
  },
  finish(item, s) {
    if (s.outcome === 'failed') {
      const reasons = (item.validation_errors ?? []).map((e) => (isObj(e) && typeof e.message === 'string' ? e.message : '')).filter(Boolean);
      const why = reasons.length ? reasons.join('; ') : item.status === 'CANCELLED' ? l10n.t('it was cancelled') : l10n.t('the service gave no reason');
      return { severity: 'error', text: l10n.t('Order item {0} failed: {1}.', named(s.name), reason(why)), actions: [] };
    }
    const targets = { orderItemIds: [item.id], names: [s.name] };
    return {
      severity: 'info',
      text:
        item.status === 'PARTIALLY_FULFILLED'
          ? l10n.t('Order item {0} is partly fulfilled: some of its imagery is ready.', named(s.name))
          : l10n.t('Order item {0} is fulfilled: its imagery is ready.', named(s.name)),
      actions: [
        { title: l10n.t('Show on Map'), command: 'showOnMap', args: [{ kind: 'orderItem', record: item }] },
        { title: l10n.t('Deliver…'), command: 'deliver', args: [targets] },
        { title: l10n.t('Download…'), command: 'download', args: [targets] },
      ],
    };
  },
};

function lastPart(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts.at(-1) ?? path;
}

const deliveries: Follower<Delivery> = {
  kind: 'delivery',
  noun: () => l10n.t('Delivery'),
  shareKey: (ref) => `delivery:${ref.id}`,
  read: (client, refs, signal) => single(refs, (id) => client.deliveries.get(id, { signal })),
  snapshot(d) {
    const outcome: Outcome = d.status === 'SUCCESS' ? 'done' : d.status === 'FAILED' ? 'failed' : 'pending';
    const name = d.target_path ? l10n.t('delivery to {0}', lastPart(d.target_path)) : l10n.t('a delivery to a cloud store');
    return { outcome, name, words: enumLabel(d.status) };
  },
  finish(d, s) {
    if (s.outcome === 'failed')
      return {
        severity: 'error',
        text: l10n.t('The {0} failed; the service gave no reason. Check the store and its path, then deliver again from the Catalog view.', named(s.name)),
        actions: [],
      };
    return {
      severity: 'info',
      text: d.target_path ? l10n.t('Delivered to {0}.', reason(d.target_path)) : l10n.t('The delivery to the cloud store finished.'),
      actions: [],
    };
  },
};

const downloads: Follower<Download> = {
  kind: 'download',
  noun: () => l10n.t('Download'),
  shareKey: (ref) => `download:${ref.id}`,
  read: (client, refs, signal) => single(refs, (id) => client.downloads.get(id, { signal })),
  snapshot(d) {
    const outcome: Outcome = d.status === 'success' ? 'done' : d.status === 'failed' ? 'failed' : 'pending';
    return { outcome, name: l10n.t('a download link'), words: enumLabel(d.status) };
  },
  finish(d, s, _ref, hint) {
    const what = hint.where !== undefined ? named(hint.where) : l10n.t('your imagery');
    if (s.outcome === 'failed')
      return {
        severity: 'error',
        text: l10n.t('The service could not prepare the download of {0}. Request it again from the Catalog or Orders view.', what),
        actions: [],
      };
    // The signed URL is read again when the person acts: it is never kept.
    return {
      severity: 'info',
      text: l10n.t('The download of {0} is ready.', what),
      actions: [{ title: l10n.t('Download…'), command: 'saveReadyDownload', args: [{ downloadId: d.id, what }] }],
    };
  },
};

const insightRuns: Follower<Insight> = {
  kind: 'insightRun',
  noun: () => l10n.t('Insight run'),
  // Every run of one AOI comes in one list: three pending runs there cost one request.
  shareKey: (ref) => `insightRuns:${ref.parent ?? ''}`,
  async read(client, refs, signal) {
    const runs = await client.insightRuns.list(refs[0].parent ?? '', {}, { signal });
    const wanted = new Set(refs.map((r) => r.id));
    return new Map(runs.filter((r) => wanted.has(r.id)).map((r) => [r.id, r]));
  },
  snapshot(r) {
    const state = runState(r.status);
    // An unknown status is final: a run is never followed blindly.
    const outcome: Outcome = state === 'pending' ? 'pending' : state === 'success' ? 'done' : 'failed';
    return {
      outcome,
      name: r.name || l10n.t('an unnamed insight run'),
      words: runStatusText(r),
      ...(typeof r.progress === 'number' ? { progress: Math.max(0, Math.min(100, r.progress)) } : {}),
    };
  },
  finish(r, s, ref, hint) {
    const args: ArgsOf<'showInsightOutputs'> = [{ aoiId: ref.parent ?? '', id: r.id }];
    if (s.outcome === 'failed') {
      const why = r.err_msg ? reason(r.err_msg) : l10n.t('the service gave no reason');
      const [name, where] = [named(s.name), hint.where && named(hint.where)];
      return {
        severity: 'error',
        text: where ? l10n.t('Insight {0} on {1} failed: {2}.', name, where, why) : l10n.t('Insight {0} failed: {1}.', name, why),
        actions: [{ title: l10n.t('Show Run'), command: 'showInsightOutputs', args }],
      };
    }
    const n = r.output.length;
    const [name, where] = [named(s.name), hint.where && named(hint.where)];
    const text = where
      ? n === 1
        ? l10n.t('Insight {0} on {1} finished with 1 output.', name, where)
        : l10n.t('Insight {0} on {1} finished with {2} outputs.', name, where, n)
      : n === 1
        ? l10n.t('Insight {0} finished with 1 output.', name)
        : l10n.t('Insight {0} finished with {1} outputs.', name, n);
    return { severity: 'info', text, actions: [{ title: l10n.t('Show Outputs'), command: 'showInsightOutputs', args }] };
  },
};

const jobs: Follower<Job> = {
  kind: 'job',
  noun: () => l10n.t('Workflow job'),
  // One job with its tasks: a failed one is announced with its failed task's reason.
  shareKey: (ref) => `job:${ref.id}`,
  read: (client, refs, signal) => single(refs, (id) => client.workflows.job(refs[0].parent ?? '', id, { signal })),
  snapshot(j) {
    const state = workState(j.status);
    // Unknown statuses are final (workflowState.ts): a job is never followed blindly.
    const outcome: Outcome = state === 'pending' ? 'pending' : state === 'success' ? 'done' : 'failed';
    const progress = percentOf(j.progress);
    const words = enumLabel(j.status || 'unknown');
    return {
      outcome,
      name: l10n.t('Job of {0}', dateTime(j.created_at)),
      words: outcome === 'pending' && progress !== undefined && progress > 0 && progress < 100 ? l10n.t('{0}, {1}%', words, Math.floor(progress)) : words,
      ...(progress !== undefined ? { progress } : {}),
    };
  },
  finish(j, s, ref, hint) {
    const name = named(hint.where ?? s.name);
    const actions: NextAction[] = [
      {
        title: l10n.t('Show Job Graph'),
        command: 'showJobGraph',
        args: [{ workflowId: ref.parent ?? j.workflow_id, jobId: j.id, workflowName: hint.where ?? '' }],
      },
    ];
    if (s.outcome === 'done') {
      const taken = durationSeconds(j.time_taken);
      const text = taken !== undefined ? l10n.t('The job of {0} finished in {1}.', name, duration(taken)) : l10n.t('The job of {0} finished.', name);
      return { severity: 'info', text, actions };
    }
    const failed = (j.tasks ?? []).find((t) => workState(t.status) === 'failed');
    const text = failed
      ? l10n.t(
          'The job of {0} failed: task "{1}" ({2}) failed, {3}.',
          name,
          named(failed.name),
          named(taskBlock(failed)),
          reason(taskFailureText(l10n, failed)),
        )
      : l10n.t('The job of {0} ended as "{1}".', name, enumLabel(j.status || 'unknown'));
    return { severity: 'error', text, actions };
  },
};

/**
 * The table: one follower per kind. Its methods are declared as methods, so each follower's
 * own record type stands for `unknown` here; the watcher hands each follower only what that
 * follower's `read` returned.
 */
export const FOLLOWERS: { readonly [K in WatchKind]: Follower<unknown> } = {
  orderItem: orderItems,
  delivery: deliveries,
  download: downloads,
  insightRun: insightRuns,
  job: jobs,
};
