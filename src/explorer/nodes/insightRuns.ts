/**
 * "Insight runs" under each AOI: the runs newest first (paged on our side: the service sends
 * the whole list), their status and progress in words, and under a run its outputs or why it
 * failed. A pending run is followed by the watcher (src/watch), which reads every run of one
 * AOI with one list request and announces each finish once; the row takes what it reads.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { ApiError, isNotSupported, type EoClient, type WithUnreadable } from '../../api';
import type { Aoi, Insight, InsightOutput } from '../../api/records';
import { outputKind, runState, runStatusText } from '../../api/insightRunState';
import type { ExplorerContext } from '../context';
import { count, dateTime, tokens } from '../../format';
import { kindIcon } from '../look';
import { nodeList, type NodeList } from '../nodeList';
import { recordTooltip } from '../tooltip';
import { ExplorerNode, RecordNode } from '../tree';
import { InfoRow, ListedGroupNode } from './listedGroup';

/** Runs shown per "Load more…". */
const RUNS_PER_PAGE = 20;

/** A list younger than this answers a run that falls due right after its neighbour. */
const SHARE_LIST_MS = 1500;

type GroupState = 'ok' | 'unsupported' | 'aoiGone';

export class InsightRunGroupNode extends ListedGroupNode<Insight, 'aoiGone'> {
  readonly kind = 'insightRunGroup' as const;
  readonly list: NodeList<Insight>;
  protected readonly look = {
    label: l10n.t('Insight runs'),
    icon: 'beaker',
    contextValue: 'insightRunGroup',
    unsupported: l10n.t('This service does not support insight runs'),
    unsupportedHover: l10n.t('The service answered 404 or 405 to the insight-run list: running and listing insights is beyond its interface.'),
  };
  /** The whole list as last read, newest first, and when. */
  private all?: Insight[] & WithUnreadable;
  private readAt = 0;
  private inFlight?: Promise<Insight[] & WithUnreadable>;
  /** List requests made (first loads and live progress), for tests and the benchmark. */
  requests = 0;

  constructor(
    readonly ctx: ExplorerContext,
    readonly aoiNode: ExplorerNode & { record: Aoi },
  ) {
    super('projects', aoiNode, 'insightRuns');
    this.list = nodeList<Insight>(ctx, 'projects', this, {
      what: l10n.t('insight runs'),
      pageSize: RUNS_PER_PAGE,
      empty: l10n.t('No insight runs on this AOI yet'),
      fetch: async (client, q) => {
        if (q.offset === 0) {
          this.all = undefined;
          this.state = 'ok';
        }
        let all: Insight[] & WithUnreadable;
        try {
          all = this.all ?? (await this.read(client, q.signal));
        } catch (err) {
          const gone = await this.explainMissing(client, err, q.signal);
          if (!gone) throw err;
          this.state = gone;
          return { items: [], done: true };
        }
        return { items: all.slice(q.offset, q.offset + q.limit), total: all.length, unreadable: q.offset === 0 ? all.unreadable : undefined };
      },
      idOf: (r) => r.id,
      toNode: (r) => new InsightRunNode(this, r),
    });
  }

  get aoi(): Aoi {
    return this.aoiNode.record;
  }

  /**
   * The AOI's runs, read once for every run that is due within `SHARE_LIST_MS`: with three
   * pending runs on one AOI the poller makes one request, not three.
   */
  async latest(client: EoClient, signal: AbortSignal, asking?: InsightRunNode): Promise<Insight[]> {
    if (this.all && Date.now() - this.readAt < SHARE_LIST_MS) return this.all;
    const before = pendingCount(this.all);
    const runs = await (this.inFlight ?? this.read(client, signal));
    this.absorb(runs, asking);
    // the group's own row says how many are running: it changes when a run finishes
    if (pendingCount(runs) !== before) this.ctx.changed('projects', this);
    return runs;
  }

  /** "3 · 1 running": the count, and how many runs are still going. */
  protected override describe(total: number): string {
    const pending = pendingCount(this.all);
    return pending > 0 ? l10n.t('{0} · {1} running', count(total), pending) : count(total);
  }

  protected override stateRows(): ExplorerNode[] | undefined {
    if (this.state !== 'aoiGone') return undefined;
    return [
      new InfoRow(
        this,
        'gone',
        l10n.t('This AOI no longer exists'),
        'warning',
        l10n.t('The service no longer knows this AOI; refresh the project to drop it.'),
      ),
    ];
  }

  override reset(keep = false): void {
    this.all = undefined;
    super.reset(keep);
  }

  private read(client: EoClient, signal: AbortSignal): Promise<Insight[] & WithUnreadable> {
    this.requests++;
    const p = client.insightRuns.list(this.aoi.aoi_id, {}, { signal }).then((runs) => {
      this.all = runs;
      this.readAt = Date.now();
      return runs;
    });
    this.inFlight = p;
    const clear = (): void => {
      if (this.inFlight === p) this.inFlight = undefined;
    };
    p.then(clear, clear);
    return p;
  }

  /** Fresher records for the rows already shown; runs newer than any shown are put first. */
  /** A row took a newer read (the watcher's): the group's "n running" follows it. */
  runChanged(run: Insight): void {
    const all = this.all;
    const i = all?.findIndex((r) => r.id === run.id) ?? -1;
    if (!all || i < 0 || runState(all[i].status) === runState(run.status)) return;
    all[i] = run;
    this.ctx.changed('projects', this);
  }

  private absorb(runs: Insight[], skip?: InsightRunNode): void {
    for (const r of runs) {
      const node = this.list.find(r.id);
      if (!(node instanceof InsightRunNode) || node === skip || JSON.stringify(node.record) === JSON.stringify(r)) continue;
      node.record = r;
      node.recordChanged();
      this.ctx.changed('projects', node);
    }
    if (this.list.shown === 0 && !this.list.isComplete) return;
    const newest = this.list.loadedItems[0]?.created_at;
    const newer = runs.filter((r) => !this.list.find(r.id) && (newest === undefined || Date.parse(r.created_at) > Date.parse(newest)));
    for (const r of newer.reverse()) this.list.pin(r);
    if (newer.length > 0) this.ctx.changed('projects', this);
  }

  /** 404/405: is the AOI gone, or does the service not list runs at all? */
  private async explainMissing(client: EoClient, err: unknown, signal: AbortSignal): Promise<GroupState | undefined> {
    if (!isNotSupported(err)) return undefined;
    try {
      await client.aois.get(this.aoi.aoi_id, { signal });
      return 'unsupported';
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return 'aoiGone';
      throw err;
    }
  }
}

function pendingCount(runs: readonly Insight[] | undefined): number {
  return (runs ?? []).filter((r) => runState(r.status) === 'pending').length;
}

export class InsightRunNode extends RecordNode<Insight> {
  readonly kind = 'insightRun' as const;
  constructor(
    readonly group: InsightRunGroupNode,
    record: Insight,
  ) {
    super('projects', group, `run:${record.id}`, record);
    this.followIfPending();
  }

  /** The output rows of the record they were made for. */
  private outputs?: { of: Insight; rows: ExplorerNode[] };

  get recordId(): string {
    return this.record.id;
  }

  get aoi(): Aoi {
    return this.group.aoi;
  }

  /** What the poller and the status icons read: pending runs are "processing". */
  override status(): string {
    const s = runState(this.record.status);
    return s === 'pending' ? 'processing' : s === 'unknown' ? this.record.status || 'unknown' : s;
  }

  getTreeItem(): vscode.TreeItem {
    const r = this.record;
    const state = runState(r.status);
    const expandable = state === 'success' || state === 'failed';
    const item = new vscode.TreeItem(r.name, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    const parts = [runStatusText(r)];
    if (state === 'success') parts.push(r.output.length === 1 ? l10n.t('1 output') : l10n.t('{0} outputs', r.output.length));
    if (state === 'failed' && r.err_msg) parts.push(r.err_msg);
    parts.push(dateTime(r.created_at));
    item.description = parts.filter(Boolean).join(' · ');
    item.iconPath = kindIcon('beaker', this.status());
    item.contextValue = `insightRun.${state}`;
    item.tooltip = recordTooltip(r.name, [
      [l10n.t('Status'), runStatusText(r)],
      [l10n.t('Error'), r.err_msg],
      [l10n.t('Block'), r.block ? `${r.block.name} ${r.block.version}` : undefined],
      [l10n.t('AOI'), this.aoi.name],
      [l10n.t('Cost'), typeof r.cost === 'number' ? tokens(r.cost) : undefined],
      [l10n.t('Estimated time'), typeof r.estimated_time_in_min === 'number' && state === 'pending' ? l10n.t('{0} min', r.estimated_time_in_min) : undefined],
      [l10n.t('Inputs'), r.input.map((i) => i.name).join(', ')],
      [l10n.t('Created'), dateTime(r.created_at)],
      [l10n.t('ID'), r.id],
    ]);
    return item;
  }

  override getChildren(): Promise<ExplorerNode[]> {
    const r = this.record;
    const state = runState(r.status);
    if (state === 'failed') {
      return Promise.resolve([
        new InfoRow(
          this,
          'failed',
          r.err_msg ? l10n.t('Failed: {0}', r.err_msg) : l10n.t('Failed; the service gave no reason'),
          'error',
          r.err_msg ?? l10n.t('The service gave no reason.'),
        ),
      ]);
    }
    if (r.output.length === 0)
      return Promise.resolve([
        new InfoRow(this, 'none', state === 'success' ? l10n.t('The run lists no outputs') : l10n.t('Outputs appear when the run succeeds'), 'info'),
      ]);
    // the same rows for the same record: the view can reveal a row it was given (Show Outputs)
    if (this.outputs?.of !== r) this.outputs = { of: r, rows: r.output.map((o, i) => new InsightOutputNode(this, o, i)) };
    return Promise.resolve(this.outputs.rows);
  }

  override refetch(client: EoClient, signal: AbortSignal): Promise<Insight> {
    return this.group.latest(client, signal, this).then((runs) => {
      const fresh = runs.find((x) => x.id === this.record.id);
      // Deleted elsewhere: stop following it, and say so.
      return fresh ?? { ...this.record, status: 'deleted' };
    });
  }

  override recordChanged(): void {
    this.group.list.replace(this.record);
    this.group.runChanged(this.record);
    this.followIfPending();
  }

  /** A run seen pending is announced when it finishes, even if its row is no longer on screen. */
  private followIfPending(): void {
    if (runState(this.record.status) !== 'pending') return;
    this.group.ctx.watcher?.follow('insightRun', this.record.id, { parent: this.aoi.aoi_id, hint: { where: this.aoi.name }, record: this.record });
  }
}

export class InsightOutputNode extends ExplorerNode {
  readonly kind = 'insightOutput' as const;

  constructor(
    readonly run: InsightRunNode,
    readonly output: InsightOutput,
    index: number,
  ) {
    super('projects', run, `output:${index}:${output.name}`);
  }

  getTreeItem(): vscode.TreeItem {
    const o = this.output;
    const kind = outputKind(o);
    const item = new vscode.TreeItem(o.name);
    const classes = o.properties.discretization?.classes;
    item.description = [
      o.format || l10n.t('unknown format'),
      classes?.length ? l10n.t('{0} classes', classes.length) : undefined,
      kind === 'other' ? o.value : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon(kind === 'raster' ? 'file-media' : kind === 'vector' ? 'symbol-field' : 'symbol-constant');
    item.contextValue = `insightOutput.${kind}`;
    item.tooltip = recordTooltip(o.name, [
      [l10n.t('Format'), o.format],
      [l10n.t('Type'), o.type],
      [l10n.t('Description'), o.description],
      [l10n.t('Value'), o.value],
      [l10n.t('Classes'), classes?.map((c) => `${c.value} ${c.name}`).join(', ')],
    ]);
    item.command = { command: 'eoImagery.openInsightOutput', title: l10n.t('Open Output'), arguments: [this] };
    return item;
  }
}
