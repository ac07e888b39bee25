import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api';
import type { Aoi, Asset, Project, Visualization } from '../../api/records';
import type { ExplorerContext } from '../context';
import { count, dateTime, day, km2 } from '../../format';
import { assetRow } from '../labels';
import { kindIcon, statusIcon } from '../look';
import { nodeList, type NodeList } from '../nodeList';
import type { PageQuery, PageResult } from '../paged';
import { statusCategory, statusLabel } from '../status';
import { recordTooltip } from '../tooltip';
import { ExplorerNode, RecordNode } from '../tree';
import { InsightRunGroupNode } from './insightRuns';
import { WorkflowGroupNode } from './workflows';

function progressText(status: string, progress: number | undefined): string {
  const s = statusLabel(status);
  return statusCategory(status) === 'inProgress' && typeof progress === 'number' && progress < 100 ? l10n.t('{0} {1}%', s, progress) : s;
}

/** The Projects view's root list: projects, paged by page_num/page_size. */
export function projectsRoot(ctx: ExplorerContext): NodeList<Project> {
  return nodeList<Project>(ctx, 'projects', undefined, {
    what: l10n.t('projects'),
    empty: l10n.t('No projects yet'),
    async fetch(client: EoClient, q: PageQuery): Promise<PageResult<Project>> {
      // Pages are fixed-size, so the offset always falls on a page boundary.
      const page = await client.projects.listPage({ pageNum: Math.floor(q.offset / q.limit) + 1, pageSize: q.limit }, { signal: q.signal });
      return { items: page.items, total: page.total };
    },
    idOf: (p) => p.id,
    toNode: (p) => new ProjectNode(ctx, p),
  });
}

export class ProjectNode extends RecordNode<Project> {
  readonly kind = 'project' as const;
  readonly aois: NodeList<Aoi>;
  /** The project's workflows, a row above its AOIs. */
  readonly workflows: WorkflowGroupNode;

  constructor(ctx: ExplorerContext, record: Project) {
    super('projects', undefined, `project:${record.id}`, record);
    this.workflows = new WorkflowGroupNode(ctx, this);
    this.aois = nodeList<Aoi>(ctx, 'projects', this, {
      what: l10n.t('AOIs'),
      get empty(): string {
        const name = ctx.filters.current.aoiName;
        return name ? l10n.t('No AOIs named like "{0}" in this project', name) : l10n.t('No AOIs in this project yet');
      },
      fetch: async (client, q) => {
        const page = await client.aois.listPage(
          { project_ids: [this.record.id], aoi_name: ctx.filters.current.aoiName, offset: q.offset, limit: q.limit },
          { signal: q.signal },
        );
        return { items: page.items, total: page.total };
      },
      idOf: (a) => a.aoi_id,
      toNode: (a) => new AoiNode(ctx, this, a),
    });
  }

  get recordId(): string {
    return this.record.id;
  }

  getTreeItem(): vscode.TreeItem {
    const p = this.record;
    const label = p.name || p.title || l10n.t('Untitled project');
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    const total = this.aois.total;
    const parts: string[] = [];
    if (p.title && p.title !== label) parts.push(p.title);
    if (total !== undefined) parts.push(total === 1 ? l10n.t('1 AOI') : l10n.t('{0} AOIs', count(total)));
    item.description = parts.join(' · ');
    item.iconPath = new vscode.ThemeIcon('project');
    item.contextValue = 'project';
    item.tooltip = recordTooltip(label, [
      [l10n.t('Title'), p.title],
      [l10n.t('ID'), p.id],
      [l10n.t('Organisation'), p.org_id],
      [l10n.t('Members'), p.members_count],
      [l10n.t('Created'), dateTime(p.created_at)],
      [l10n.t('Updated'), dateTime(p.updated_at)],
    ]);
    return item;
  }

  protected override childList(): NodeList<unknown> {
    return this.aois;
  }

  override async getChildren(): Promise<ExplorerNode[]> {
    return [this.workflows, ...(await this.aois.children())];
  }

  override reset(keep = false): void {
    this.workflows.reset(keep);
    this.aois.reset(keep);
  }
}

export class AoiNode extends RecordNode<Aoi> {
  readonly kind = 'aoi' as const;
  readonly assets: AssetGroupNode;
  readonly visualizations: VisualizationGroupNode;
  readonly insightRuns: InsightRunGroupNode;

  constructor(ctx: ExplorerContext, parent: ProjectNode, record: Aoi) {
    super('projects', parent, `aoi:${record.aoi_id}`, record);
    this.assets = new AssetGroupNode(ctx, this);
    this.visualizations = new VisualizationGroupNode(ctx, this);
    this.insightRuns = new InsightRunGroupNode(ctx, this);
  }

  get recordId(): string {
    return this.record.aoi_id;
  }

  override status(): string {
    return this.record.status;
  }

  getTreeItem(): vscode.TreeItem {
    const a = this.record;
    const item = new vscode.TreeItem(a.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = `${km2(a.area_in_sq_m)} · ${progressText(a.status, a.progress)}`;
    item.iconPath = kindIcon('location', a.status);
    item.contextValue = 'aoi';
    item.tooltip = recordTooltip(a.name, [
      [l10n.t('Status'), progressText(a.status, a.progress)],
      [l10n.t('Area'), km2(a.area_in_sq_m)],
      [l10n.t('Satellite'), a.satellite_id],
      [l10n.t('Bands'), a.eo_bands?.join(', ')],
      [l10n.t('Centroid'), a.centroid ? l10n.t('{0}, {1} (lat, lon)', a.centroid[1].toFixed(4), a.centroid[0].toFixed(4)) : undefined],
      [l10n.t('Description'), a.description],
      [l10n.t('ID'), a.aoi_id],
      [l10n.t('Created'), dateTime(a.created_at)],
    ]);
    return item;
  }

  override getChildren(): Promise<ExplorerNode[]> {
    return Promise.resolve([this.assets, this.visualizations, this.insightRuns]);
  }

  override reset(keep = false): void {
    this.assets.reset(keep);
    this.visualizations.reset(keep);
    this.insightRuns.reset(keep);
  }

  override refetch(client: EoClient, signal: AbortSignal): Promise<Aoi> {
    return client.aois.get(this.record.aoi_id, { signal });
  }
}

/** What tells the "Assets" and "Visualizations" rows under an AOI apart. */
interface GroupSpec<T> {
  key: string;
  label: string;
  icon: string;
  what: string;
  empty: string;
  /** One page of the AOI's records. */
  page(client: EoClient, aoiId: string, range: { offset: number; limit: number }, o: { signal: AbortSignal }): Promise<{ items: T[]; total?: number }>;
  idOf(record: T): string;
  toNode(group: GroupNode<T>, record: T): ExplorerNode;
}

/** A row under an AOI holding one paged list of its records, with their count. */
abstract class GroupNode<T> extends ExplorerNode {
  readonly list: NodeList<T>;

  constructor(
    ctx: ExplorerContext,
    parent: AoiNode,
    private readonly spec: GroupSpec<T>,
  ) {
    super('projects', parent, spec.key);
    this.list = nodeList<T>(ctx, 'projects', this, {
      what: spec.what,
      empty: spec.empty,
      fetch: async (client, q) => {
        const page = await spec.page(client, parent.record.aoi_id, { offset: q.offset, limit: q.limit }, { signal: q.signal });
        return { items: page.items, total: page.total };
      },
      idOf: spec.idOf,
      toNode: (r) => spec.toNode(this, r),
    });
  }

  get label(): string {
    return this.spec.label;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.spec.label, vscode.TreeItemCollapsibleState.Collapsed);
    const total = this.list.total;
    if (total !== undefined) item.description = count(total);
    item.iconPath = new vscode.ThemeIcon(this.spec.icon);
    item.contextValue = this.kind;
    return item;
  }

  protected override childList(): NodeList<unknown> {
    return this.list;
  }
}

/**
 * The index each visualization of an AOI shows, for the assets made by one: read once for the
 * page of assets that needs it (one request per AOI); a failure only costs the names.
 */
async function indexNames(client: EoClient, aoiId: string, known: Map<string, string>, assets: readonly Asset[], signal: AbortSignal): Promise<void> {
  if (!assets.some((a) => a.visualization_id && !known.has(a.visualization_id))) return;
  try {
    const page = await client.visualizations.listPage(aoiId, { offset: 0, limit: 100 }, { signal });
    for (const v of page.items) if (v.index_name) known.set(v.id, v.index_name);
  } catch (err) {
    if (signal.aborted) throw err;
  }
}

export class AssetGroupNode extends GroupNode<Asset> {
  readonly kind = 'assetGroup' as const;

  constructor(ctx: ExplorerContext, parent: AoiNode) {
    const indexOf = new Map<string, string>();
    super(ctx, parent, {
      key: 'assets',
      label: l10n.t('Assets'),
      icon: 'files',
      what: l10n.t('assets'),
      empty: l10n.t('No assets for this AOI yet'),
      page: async (client, aoiId, range, o) => {
        const page = await client.aois.assetsPage(aoiId, range, o);
        await indexNames(client, aoiId, indexOf, page.items, o.signal);
        return page;
      },
      idOf: (a) => a.id,
      toNode: (group, a) => new AssetNode(group, a, a.visualization_id ? indexOf.get(a.visualization_id) : undefined),
    });
  }
}

export class VisualizationGroupNode extends GroupNode<Visualization> {
  readonly kind = 'visualizationGroup' as const;

  constructor(ctx: ExplorerContext, parent: AoiNode) {
    super(ctx, parent, {
      key: 'visualizations',
      label: l10n.t('Visualizations'),
      icon: 'symbol-color',
      what: l10n.t('visualizations'),
      empty: l10n.t('No visualizations for this AOI yet'),
      page: (client, aoiId, range, o) => client.visualizations.listPage(aoiId, range, o),
      idOf: (v) => v.id,
      toNode: (group, v) => new VisualizationNode(group, v),
    });
  }
}

export class AssetNode extends RecordNode<Asset> {
  readonly kind = 'asset' as const;

  constructor(
    parent: GroupNode<Asset>,
    record: Asset,
    readonly indexName?: string,
  ) {
    super('projects', parent, `asset:${record.id}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  override status(): string {
    return this.record.status;
  }

  getTreeItem(): vscode.TreeItem {
    const a = this.record;
    const row = assetRow(l10n, a, this.indexName);
    const item = new vscode.TreeItem(row.label);
    item.description = [row.description, a.status !== 'success' ? progressText(a.status, a.progress) : ''].filter(Boolean).join(' · ');
    item.iconPath = kindIcon('file-media', a.status);
    item.contextValue = 'asset';
    item.tooltip = recordTooltip(a.name || row.label, [
      [l10n.t('Date'), day(a.date)],
      [l10n.t('Visualization'), this.indexName],
      [l10n.t('Type'), a.asset_type],
      [l10n.t('Bands'), a.band_list?.join(', ')],
      [l10n.t('Area'), km2(a.area_in_sq_m)],
      [l10n.t('Status'), progressText(a.status, a.progress)],
      [l10n.t('Description'), a.description],
      [l10n.t('Path'), a.path],
      [l10n.t('ID'), a.id],
    ]);
    return item;
  }
}

export class VisualizationNode extends RecordNode<Visualization> {
  readonly kind = 'visualization' as const;

  constructor(parent: GroupNode<Visualization>, record: Visualization) {
    super('projects', parent, `visualization:${record.id}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  override status(): string {
    return this.record.status;
  }

  getTreeItem(): vscode.TreeItem {
    const v = this.record;
    // List items carry only index_id; the client joins the index's name (docs/service-interface.md).
    const item = new vscode.TreeItem(v.index_name || l10n.t('Visualization of an unknown index'));
    item.description = [v.expression_type, progressText(v.status, v.progress)].filter(Boolean).join(' · ');
    item.iconPath = statusIcon(v.status);
    item.contextValue = 'visualization';
    item.tooltip = recordTooltip(v.index_name || l10n.t('Visualization of an unknown index'), [
      [l10n.t('Status'), progressText(v.status, v.progress)],
      [l10n.t('Index'), v.index_name ? `${v.index_name}${v.type ? ` (${v.type})` : ''}` : v.index_id],
      [l10n.t('Expression'), v.expression],
      [l10n.t('Rescale'), v.rescale?.join(' … ')],
      [l10n.t('Assets'), v.assets?.length],
      [l10n.t('ID'), v.id],
      [l10n.t('Created'), dateTime(v.created_at)],
    ]);
    return item;
  }

  override async refetch(client: EoClient, signal: AbortSignal): Promise<Visualization> {
    const page = await client.visualizations.listPage(this.record.aoi_id, { visualization_id: this.record.id, limit: 1 }, { signal });
    const found = page.items.find((v) => v.id === this.record.id);
    return found ?? this.record;
  }
}
