/**
 * A group row over a list the service may not offer ("Workflows" under a project, "Insight
 * runs" under an AOI): its label, count and icon, and when the list answers 404 or 405, "not
 * supported" on the row and one line under it saying so, instead of an error.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { count } from '../../format';
import type { NodeList } from '../nodeList';
import { ExplorerNode } from '../tree';

/** How a listed group looks, and what it says when the service does not list its records. */
export interface ListedGroupLook {
  label: string;
  icon: string;
  contextValue: string;
  unsupported: string;
  unsupportedHover: string;
}

export abstract class ListedGroupNode<T, S extends string = 'ok' | 'unsupported'> extends ExplorerNode {
  abstract readonly list: NodeList<T>;
  protected abstract readonly look: ListedGroupLook;
  state = 'ok' as 'ok' | 'unsupported' | S;

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.look.label, vscode.TreeItemCollapsibleState.Collapsed);
    if (this.state === 'unsupported') item.description = l10n.t('not supported');
    else if (this.list.total !== undefined) item.description = this.describe(this.list.total);
    item.iconPath = new vscode.ThemeIcon(this.look.icon);
    item.contextValue = this.look.contextValue;
    return item;
  }

  override async getChildren(): Promise<ExplorerNode[]> {
    const rows = await this.list.children();
    if (this.state === 'unsupported') return [new InfoRow(this, 'unsupported', this.look.unsupported, 'circle-slash', this.look.unsupportedHover)];
    return this.stateRows() ?? rows;
  }

  override reset(keep = false): void {
    this.state = 'ok';
    this.list.reset(keep);
  }

  /** The row's description once the list's length is known. */
  protected describe(total: number): string {
    return count(total);
  }

  /** The rows shown instead of the list in a state of the subclass's own (an AOI gone). */
  protected stateRows(): ExplorerNode[] | undefined {
    return undefined;
  }
}

/** A line under a group or row: not supported, AOI gone, why a run, job or task failed. */
export class InfoRow extends ExplorerNode {
  readonly kind = 'message' as const;

  constructor(
    parent: ExplorerNode,
    key: string,
    readonly text: string,
    private readonly icon: string,
    private readonly hover?: string,
  ) {
    super('projects', parent, `~${key}`);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.text);
    item.iconPath = new vscode.ThemeIcon(this.icon, this.icon === 'error' ? new vscode.ThemeColor('list.errorForeground') : undefined);
    item.contextValue = 'message';
    if (this.hover) item.tooltip = this.hover;
    return item;
  }
}
