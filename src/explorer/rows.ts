import vscode = require('vscode');
import { l10n } from 'vscode';
import { ApiError, statusTitle, type UnreadableRecord } from '../api';
import { COMMANDS } from '../commandIds';
import { describeError } from '../ui/showError';
import { count } from '../format';
import type { LoadableList } from './paged';
import { ExplorerNode, type ViewId } from './tree';
import { messageTooltip } from './tooltip';

/** "Load more…" at the end of a list that has more pages; "Loading…" while one is in flight. */
export class LoadMoreNode extends ExplorerNode {
  readonly kind = 'loadMore' as const;

  constructor(
    view: ViewId,
    parent: ExplorerNode | undefined,
    readonly list: LoadableList,
  ) {
    super(view, parent, '~more');
  }

  getTreeItem(): vscode.TreeItem {
    const loading = this.list.isLoading;
    const item = new vscode.TreeItem(loading ? l10n.t('Loading…') : l10n.t('Load more…'));
    const total = this.list.total;
    item.description =
      total !== undefined
        ? l10n.t('{0} of {1} {2}', count(this.list.shown), count(total), this.list.what)
        : l10n.t('{0} {1} shown', count(this.list.shown), this.list.what);
    item.iconPath = new vscode.ThemeIcon(loading ? 'loading~spin' : 'ellipsis');
    item.contextValue = 'loadMore';
    item.tooltip = l10n.t('Fetch the next page of {0}', this.list.what);
    if (!loading) item.command = { command: COMMANDS.loadMore, title: l10n.t('Load more'), arguments: [this] };
    return item;
  }
}

/** A time of day in the person's locale: "14:05:09". */
function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString();
}

/** Short form for the row: "Forbidden (403)"; the whole sentence goes in the tooltip. */
function shortReason(err: unknown): string {
  if (err instanceof ApiError && err.kind === 'http' && err.status !== undefined) return `${statusTitle(err.status)} (${err.status})`;
  return describeError(err);
}

/** A failed load, in place of the rows it would have shown; clicking it retries. */
export class ErrorNode extends ExplorerNode {
  readonly kind = 'error' as const;

  constructor(
    view: ViewId,
    parent: ExplorerNode | undefined,
    readonly list: LoadableList,
    readonly error: unknown,
    /** When the rows above were read (ms since epoch): a refresh failed and they are kept, stale. */
    readonly readAt?: number,
  ) {
    super(view, parent, '~error');
  }

  get label(): string {
    if (this.readAt !== undefined)
      return l10n.t('Stale: {0} as read at {1}; could not refresh: {2}', this.list.what, clock(this.readAt), shortReason(this.error));
    return l10n.t('Could not load {0}: {1}', this.list.what, shortReason(this.error));
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label);
    item.description = l10n.t('Retry');
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.errorForeground'));
    item.tooltip =
      this.readAt !== undefined
        ? messageTooltip(
            l10n.t('Could not refresh {0}', this.list.what),
            describeError(this.error),
            l10n.t(
              'The rows above are as read at {0}. They are refreshed by themselves when the service answers again; click to retry now.',
              clock(this.readAt),
            ),
          )
        : messageTooltip(l10n.t('Could not load {0}', this.list.what), describeError(this.error), l10n.t('Click to retry.'));
    item.contextValue = 'error';
    item.command = { command: COMMANDS.retryLoad, title: l10n.t('Retry'), arguments: [this] };
    return item;
  }
}

/** 401 or no token: the way forward is to sign in again. */
export class SignInNode extends ExplorerNode {
  readonly kind = 'signIn' as const;

  constructor(
    view: ViewId,
    parent: ExplorerNode | undefined,
    readonly what: string,
    readonly error: unknown,
  ) {
    super(view, parent, '~signin');
  }

  get label(): string {
    return l10n.t('Sign in again');
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label);
    item.description = l10n.t('could not load {0}: {1}', this.what, shortReason(this.error));
    item.iconPath = new vscode.ThemeIcon('key', new vscode.ThemeColor('list.warningForeground'));
    item.tooltip = messageTooltip(undefined, describeError(this.error), l10n.t('Click to sign in with a new access token.'));
    item.contextValue = 'signIn';
    item.command = { command: COMMANDS.signIn, title: l10n.t('Sign In') };
    return item;
  }
}

/** A line of information, e.g. "No AOIs in this project yet". */
export class MessageNode extends ExplorerNode {
  readonly kind = 'message' as const;

  constructor(
    view: ViewId,
    parent: ExplorerNode | undefined,
    key: string,
    readonly text: string,
  ) {
    super(view, parent, `~${key}`);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.text);
    item.iconPath = new vscode.ThemeIcon('info');
    item.contextValue = 'message';
    return item;
  }
}

/** How many reasons a hover lists before "and N more". */
const REASONS_SHOWN = 10;

/**
 * "2 records could not be read": records of a listing the service sent in a shape that does not
 * fit, left out so that the rest shows. The hover says which and why; the log has every one.
 */
export class UnreadableNode extends ExplorerNode {
  readonly kind = 'unreadable' as const;

  constructor(
    view: ViewId,
    parent: ExplorerNode | undefined,
    readonly what: string,
    readonly records: readonly UnreadableRecord[],
  ) {
    super(view, parent, '~unreadable');
  }

  get label(): string {
    return this.records.length === 1 ? l10n.t('1 record could not be read') : l10n.t('{0} records could not be read', count(this.records.length));
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label);
    item.description = l10n.t('left out of {0}', this.what);
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    const lines = this.records.slice(0, REASONS_SHOWN).map((r) => (r.id ? `${r.id}: ${r.reason}` : r.reason));
    if (this.records.length > REASONS_SHOWN) lines.push(l10n.t('and {0} more', this.records.length - REASONS_SHOWN));
    item.tooltip = messageTooltip(
      l10n.t('The service sent these {0} in a form the extension cannot read', this.what),
      lines.join('\n'),
      l10n.t('The others are shown. Show Log lists every one with the field that did not fit.'),
    );
    item.contextValue = 'unreadable';
    item.command = { command: COMMANDS.showLog, title: l10n.t('Show Log') };
    return item;
  }
}
