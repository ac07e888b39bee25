/**
 * What activation registers in place of the features (dist/features.js, built from
 * src/features.ts): every command, the sidebar's five views, the panels' serializers, the URI
 * handler, the chat tools and the `@eo` participant. Each registration hands its first call to
 * `load`, which requires the features once; until then none of their code is compiled or run.
 * The files the features watch (insight inputs, saved searches, shared views) load them when
 * one is open. test/unit/manifest/bundles.test.ts keeps the features out of dist/extension.js.
 */
import vscode = require('vscode');
import { COMMANDS } from './commandIds';
import type { TreeViewFactory } from './explorer/explorer';
import { showsCollapseAll, VIEW_IDS } from './explorer/viewIds';
import { CHECK_TASK_TYPE, FEATURE_FILE_SUFFIXES } from './fileKinds';
import { PANEL_VIEW_TYPES, type PanelViewType } from './panels/viewTypes';
import { PARTICIPANT_ID, TOOLS, type ToolName } from './tools/toolIds';

/** What the features answer with, once loaded. */
export interface DeferredTargets {
  readonly serializers: Readonly<Record<PanelViewType, vscode.WebviewPanelSerializer>>;
  readonly uriHandler: vscode.UriHandler;
  /** The check command as a task (`eoImagery.check`). */
  readonly checkTasks: vscode.TaskProvider;
  readonly participant: vscode.ChatRequestHandler;
  readonly tools: { readonly [K in ToolName]?: vscode.LanguageModelTool<unknown> };
}

export interface Deferred extends vscode.Disposable {
  /** The sidebar connects its providers to the views created here. */
  readonly views: TreeViewFactory;
  /**
   * Drops the command stubs: called right before the features register the real commands
   * under the same ids (VS Code refuses a second registration of an id).
   */
  releaseCommands(): void;
}

/** A view's data, handed to the sidebar's provider once the features are loaded. */
class DeferredTree implements vscode.TreeDataProvider<unknown> {
  private target?: vscode.TreeDataProvider<unknown>;
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly load: () => unknown) {}

  connect(target: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    this.target = target;
    const forwarded = target.onDidChangeTreeData?.((e) => this.changed.fire(e));
    return vscode.Disposable.from(this.changed, ...(forwarded ? [forwarded] : []));
  }

  getChildren(element?: unknown): vscode.ProviderResult<unknown[]> {
    // A visible view asks for its rows: that is the sidebar's first use.
    if (!this.target) this.load();
    return this.target?.getChildren(element);
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    // VS Code asks only for elements getChildren returned, so the target is there.
    if (!this.target) throw new Error('EO Imagery: a tree item was asked for before its view was loaded');
    return this.target.getTreeItem(element);
  }

  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.target?.getParent?.(element);
  }
}

/** Registers the stand-ins; `load` requires the features (once) and answers with their targets. */
export function registerDeferred(load: () => DeferredTargets): Deferred {
  const disposables: vscode.Disposable[] = [];
  // Commands: a stub per id runs the real command, which the features register when loaded.
  // One handler for all of them, told its id through `this` (registerCommand's thisArg).
  function stub(this: string, ...args: unknown[]): Thenable<unknown> {
    load();
    return vscode.commands.executeCommand(String(this), ...args);
  }
  let stubs: vscode.Disposable[] | undefined = Object.values(COMMANDS).map((id) => vscode.commands.registerCommand(id, stub, id));
  const releaseCommands = (): void => {
    for (const s of stubs ?? []) s.dispose();
    stubs = undefined;
  };

  // The views and the panels' serializers wait until activate() has returned: VS Code asks a
  // view for its rows once its provider is registered, and keeps a panel to restore until its
  // serializer is registered (its revival pool). Creating the first tree view and the first
  // serializer (whose engine range check compiles a regular expression) costs milliseconds
  // that activation need not wait for.
  const trees = new Map<string, { tree: DeferredTree; view: vscode.TreeView<unknown> }>();
  let later: ReturnType<typeof setTimeout> | undefined;
  const registerLater = (): void => {
    if (!later) return;
    clearTimeout(later);
    later = undefined;
    for (const id of VIEW_IDS) {
      const tree = new DeferredTree(load);
      const viewId = `eoImagery.${id}`;
      const view = vscode.window.createTreeView(viewId, { treeDataProvider: tree, showCollapseAll: showsCollapseAll(id) });
      trees.set(viewId, { tree, view });
      disposables.push(view);
    }
    for (const type of PANEL_VIEW_TYPES) {
      disposables.push(
        vscode.window.registerWebviewPanelSerializer(type, {
          deserializeWebviewPanel: (panel, state: unknown) => load().serializers[type].deserializeWebviewPanel(panel, state),
        }),
      );
    }
  };
  later = setTimeout(registerLater, 0);
  const views: TreeViewFactory = <T>(id: string, provider: vscode.TreeDataProvider<T>, options: { showCollapseAll: boolean }) => {
    // The features may load first (a command run right after activation): the views are made now.
    registerLater();
    const made = trees.get(id);
    if (!made) return vscode.window.createTreeView(id, { treeDataProvider: provider, ...options });
    disposables.push(made.tree.connect(provider as vscode.TreeDataProvider<unknown>));
    return made.view as vscode.TreeView<T>;
  };

  disposables.push(vscode.window.registerUriHandler({ handleUri: (uri) => load().uriHandler.handleUri(uri) }));
  disposables.push(
    vscode.tasks.registerTaskProvider(CHECK_TASK_TYPE, {
      provideTasks: (token) => load().checkTasks.provideTasks(token),
      resolveTask: (task, token) => load().checkTasks.resolveTask(task, token),
    }),
  );

  const tool = (name: ToolName): vscode.LanguageModelTool<unknown> => {
    const found = load().tools[name];
    if (!found) throw new Error(`EO Imagery: the chat tool ${TOOLS[name]} has no implementation`);
    return found;
  };
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    disposables.push(
      vscode.lm.registerTool<unknown>(TOOLS[name], {
        prepareInvocation: (options, token) => tool(name).prepareInvocation?.(options, token),
        invoke: (options, token) => tool(name).invoke(options, token),
      }),
    );
  }
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) =>
    load().participant(request, context, stream, token),
  );
  participant.iconPath = new vscode.ThemeIcon('globe');
  disposables.push(participant);

  // A file the features serve, open now or later: its diagnostics, CodeLens and offers load them.
  const served = (doc: vscode.TextDocument): boolean => FEATURE_FILE_SUFFIXES.some((suffix) => doc.uri.path.endsWith(suffix));
  let opened: vscode.Disposable | undefined = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (!served(doc)) return;
    opened?.dispose();
    opened = undefined;
    load();
  });
  // After activation returns, not inside it (reading the open documents too): the file is
  // open, its features are being used.
  const openNow = setTimeout(() => {
    if (vscode.workspace.textDocuments.some(served)) load();
  }, 0);

  return {
    views,
    releaseCommands,
    dispose: () => {
      releaseCommands();
      clearTimeout(openNow);
      if (later) clearTimeout(later);
      later = undefined;
      opened?.dispose();
      for (const d of disposables) d.dispose();
    },
  };
}
