/**
 * A job's tasks as a graph: laid out left to right by dagre (dependencies before the tasks
 * that wait for them), drawn as SVG whose colours are the theme's chart colours by status,
 * with the status in words on every node; below it, the same tasks as a list in dependency
 * order for the keyboard and screen readers. Every text comes worded from the extension;
 * service values go in as text only.
 */
import * as l10n from '@vscode/l10n';
import { Graph, layout } from '@dagrejs/dagre';
import {
  JOB_GRAPH_TO_PAGE,
  type FromJobGraphMessage,
  type GraphNodeModel,
  type JobGraphModel,
  type JobGraphState,
  type TaskLook,
} from '../../src/panels/jobGraph/protocol';
import type { Handlers } from '../../src/panels/webview/messages';
import { listen } from '../shared/messages';
import { count } from '../../src/format';
import { append, clear, el } from '../shared/dom';
import type { VsCodeApi } from '../shared/vscodeApi';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_HEIGHT = 62;
const PAD = 12;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function lookWord(look: TaskLook): string {
  switch (look) {
    case 'success':
      return l10n.t('Succeeded');
    case 'running':
      return l10n.t('Running');
    case 'waiting':
      return l10n.t('Pending');
    case 'failed':
      return l10n.t('Failed');
    case 'skipped':
      return l10n.t('Skipped');
    default:
      return l10n.t('Other');
  }
}

const LOOKS: TaskLook[] = ['success', 'running', 'waiting', 'failed', 'skipped'];

/** Width of a line of text in the node's font, measured once per text. */
function measurer(): (text: string, font: string) => number {
  const ctx = document.createElement('canvas').getContext('2d');
  return (text, font) => {
    if (!ctx) return text.length * 7.5;
    ctx.font = font;
    return ctx.measureText(text).width;
  };
}

export interface LaidOut {
  width: number;
  height: number;
  nodes: { model: GraphNodeModel; x: number; y: number; width: number; height: number }[];
  edges: { from: string; to: string; points: { x: number; y: number }[] }[];
}

/** dagre's layout of the model: node boxes by their text, ranks left to right. */
export function layOut(model: JobGraphModel, textWidth: (text: string, font: string) => number, font: string): LaidOut {
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 22, ranksep: 60, marginx: PAD, marginy: PAD });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of model.nodes.slice(0, model.drawn)) {
    const lines = [n.name, n.block, [n.statusText, n.timeTaken].filter(Boolean).join(' · ')];
    const width = Math.ceil(Math.max(120, ...lines.map((l) => textWidth(l, font))) + 2 * PAD);
    g.setNode(n.id, { width: Math.min(width, 320), height: NODE_HEIGHT });
  }
  for (const [a, b] of model.edges) if (g.hasNode(a) && g.hasNode(b)) g.setEdge(a, b);
  layout(g);
  const label = g.graph();
  return {
    width: Math.ceil(label.width ?? 0),
    height: Math.ceil(label.height ?? 0),
    nodes: model.nodes.slice(0, model.drawn).map((m) => {
      const n = g.node(m.id);
      return { model: m, x: n.x, y: n.y, width: n.width, height: n.height };
    }),
    edges: g.edges().map((e) => ({ from: e.v, to: e.w, points: ((g.edge(e).points ?? []) as { x: number; y: number }[]).map((p) => ({ x: p.x, y: p.y })) })),
  };
}

/** Rows the task list shows at once. */
const LIST_PAGE = 200;

export class JobGraphApp {
  /** The last layout drawn (the tests read it). */
  laidOut?: LaidOut;
  /** What the task list's find box holds, and the first row shown: kept across live updates. */
  private listQuery = '';
  private listFirst = 0;
  private readonly measure = measurer();

  constructor(
    private readonly vscode: VsCodeApi<JobGraphState>,
    private readonly root: HTMLElement,
  ) {
    append(root, el('p', { class: 'muted', role: 'status' }, l10n.t('Loading the job…')));
    listen(JOB_GRAPH_TO_PAGE, this.handlers());
    this.post({ type: 'ready' });
  }

  private post(m: FromJobGraphMessage): void {
    this.vscode.postMessage(m);
  }

  /** One handler per message of the job graph's table (src/panels/jobGraph/protocol.ts). */
  private handlers(): Handlers<typeof JOB_GRAPH_TO_PAGE> {
    return {
      graph: (m) => {
        this.vscode.setState(m.state);
        this.render(m.model);
      },
      loading: (m) => {
        clear(this.root);
        append(this.root, el('p', { class: 'muted', role: 'status' }, m.label));
      },
      error: (m) => {
        clear(this.root);
        append(
          this.root,
          el('p', { class: 'error', role: 'alert' }, m.message),
          el('button', { type: 'button', onclick: () => this.post({ type: 'refresh' }) }, l10n.t('Try Again')),
        );
      },
    };
  }

  private render(model: JobGraphModel): void {
    // Keep the keyboard where it was across a live update.
    const active = document.activeElement as HTMLElement | null;
    const focused = active?.dataset?.task;
    const finding = active?.classList.contains('find-task') ? ((active as HTMLInputElement).selectionStart ?? 0) : undefined;
    clear(this.root);
    const head = el(
      'header',
      {},
      el('h1', {}, model.title),
      el('p', { class: 'summary', role: 'status', 'aria-live': 'polite' }, model.summary, model.live ? ` · ${l10n.t('following live')}` : ''),
    );
    append(this.root, head);
    if (model.problems) append(this.root, el('p', { class: 'problems', role: 'alert' }, model.problems));
    if (model.drawnNote) append(this.root, el('p', { class: 'muted drawn-note' }, model.drawnNote));
    if (model.nodes.length === 0) {
      append(this.root, el('p', { class: 'muted' }, l10n.t('This job lists no tasks.')));
      return;
    }
    append(this.root, this.legend(), this.graph(model), this.list(model));
    if (focused) (this.root.querySelector(`[data-task="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus();
    const find = this.root.querySelector<HTMLInputElement>('input.find-task');
    if (finding !== undefined && find) {
      find.focus();
      find.setSelectionRange(finding, finding);
    }
  }

  private legend(): HTMLElement {
    return el(
      'ul',
      { class: 'legend', 'aria-label': l10n.t('Colours by status') },
      ...LOOKS.map((look) => el('li', {}, el('span', { class: `swatch look-${look}`, 'aria-hidden': 'true' }), lookWord(look))),
    );
  }

  private graph(model: JobGraphModel): HTMLElement {
    const font = `600 ${getComputedStyle(document.body).fontSize || '13px'} ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
    const laid = layOut(model, this.measure, font);
    this.laidOut = laid;
    const root = svg('svg', {
      width: laid.width,
      height: laid.height,
      viewBox: `0 0 ${laid.width} ${laid.height}`,
      role: 'group',
      'aria-label': l10n.t('Task graph'),
    });
    const defs = svg('defs');
    const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }));
    defs.appendChild(marker);
    root.appendChild(defs);
    for (const e of laid.edges) {
      if (e.points.length < 2) continue;
      const d = e.points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
      root.appendChild(svg('path', { d, class: 'edge', 'marker-end': 'url(#arrow)', 'data-from': e.from, 'data-to': e.to }));
    }
    for (const n of laid.nodes) {
      const m = n.model;
      const x0 = n.x - n.width / 2;
      const y0 = n.y - n.height / 2;
      const g = svg('g', {
        class: `node look-${m.look}`,
        transform: `translate(${x0.toFixed(1)} ${y0.toFixed(1)})`,
        tabindex: 0,
        role: 'button',
        'data-task': m.id,
        'aria-label': this.spoken(m),
      });
      g.appendChild(svg('rect', { class: 'box', width: n.width, height: n.height, rx: 4 }));
      g.appendChild(svg('rect', { class: 'stripe', width: 5, height: n.height, rx: 2 }));
      if (m.look === 'running' && typeof m.progress === 'number')
        g.appendChild(svg('rect', { class: 'progress', x: 5, y: n.height - 4, width: ((n.width - 5) * m.progress) / 100, height: 4 }));
      g.appendChild(svg('text', { x: PAD, y: 19, class: 'name' }, m.name));
      g.appendChild(svg('text', { x: PAD, y: 36, class: 'block' }, m.block));
      g.appendChild(svg('text', { x: PAD, y: 53, class: 'status' }, [m.statusText, m.timeTaken].filter(Boolean).join(' · ')));
      const tip = svg('title', {}, [m.name, m.block, m.statusText, m.timeTaken, m.error].filter(Boolean).join('\n'));
      g.appendChild(tip);
      g.addEventListener('click', () => this.post({ type: 'openLog', taskId: m.id }));
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          this.post({ type: 'openLog', taskId: m.id });
        }
      });
      root.appendChild(g);
    }
    return el('div', { class: 'canvas' }, root as unknown as HTMLElement);
  }

  private spoken(m: GraphNodeModel): string {
    return [
      m.name,
      m.block,
      m.statusText,
      m.timeTaken,
      m.error,
      m.dependsOn ? l10n.t('depends on {0}', m.dependsOn) : l10n.t('depends on nothing'),
      l10n.t('Enter opens its log'),
    ]
      .filter(Boolean)
      .join(', ');
  }

  /**
   * The tasks as a table in dependency order. A job may hold tens of thousands: past LIST_PAGE
   * the table shows a page at a time, with a box that finds tasks by name, so every task can
   * be reached and the page stays quick to draw.
   */
  private list(model: JobGraphModel): HTMLElement {
    const body = el('tbody', {});
    const table = el(
      'table',
      { class: 'tasks' },
      el('caption', {}, l10n.t('Tasks in dependency order')),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...[l10n.t('Task'), l10n.t('Block'), l10n.t('Status'), l10n.t('Time taken'), l10n.t('Depends on'), l10n.t('Error'), ''].map((h) =>
            el('th', { scope: 'col' }, h),
          ),
        ),
      ),
      body,
    );
    if (model.nodes.length <= LIST_PAGE) {
      append(body, ...model.nodes.map((n) => this.row(n)));
      return table;
    }
    const shown = el('p', { class: 'muted pager', role: 'status' });
    const previous = el('button', { type: 'button', class: 'secondary previous' }, l10n.t('Previous'));
    const next = el('button', { type: 'button', class: 'secondary next' }, l10n.t('Next'));
    const find = el('input', {
      type: 'search',
      class: 'find-task',
      value: this.listQuery,
      placeholder: l10n.t('Find a task by name'),
      'aria-label': l10n.t('Find a task by name'),
      autocomplete: 'off',
      spellcheck: 'false',
    });
    const show = (): void => {
      const q = this.listQuery.trim().toLowerCase();
      const matching = q ? model.nodes.filter((n) => n.name.toLowerCase().includes(q)) : model.nodes;
      this.listFirst = Math.max(0, Math.min(this.listFirst, (Math.ceil(matching.length / LIST_PAGE) - 1) * LIST_PAGE));
      clear(body);
      append(body, ...matching.slice(this.listFirst, this.listFirst + LIST_PAGE).map((n) => this.row(n)));
      shown.textContent =
        matching.length === 0
          ? l10n.t('No task name contains "{0}".', this.listQuery.trim())
          : l10n.t(
              'Tasks {0}–{1} of {2}',
              count(this.listFirst + 1),
              count(Math.min(this.listFirst + LIST_PAGE, matching.length)),
              q ? l10n.t('{0} whose name contains "{1}"', count(matching.length), this.listQuery.trim()) : count(matching.length),
            );
      previous.disabled = this.listFirst === 0;
      next.disabled = this.listFirst + LIST_PAGE >= matching.length;
    };
    find.addEventListener('input', () => {
      this.listQuery = find.value;
      this.listFirst = 0;
      show();
    });
    previous.addEventListener('click', () => {
      this.listFirst -= LIST_PAGE;
      show();
    });
    next.addEventListener('click', () => {
      this.listFirst += LIST_PAGE;
      show();
    });
    show();
    return el('section', { class: 'task-list' }, el('div', { class: 'list-tools' }, find, previous, next, shown), table);
  }

  private row(n: GraphNodeModel): HTMLElement {
    return el(
      'tr',
      { class: `look-${n.look}` },
      el('td', {}, el('span', { class: `swatch look-${n.look}`, 'aria-hidden': 'true' }), n.name),
      el('td', {}, n.block),
      el('td', {}, n.statusText),
      el('td', {}, n.timeTaken ?? ''),
      el('td', {}, n.dependsOn),
      el('td', { class: 'error' }, n.error ?? ''),
      el('td', {}, el('button', { type: 'button', class: 'secondary', onclick: () => this.post({ type: 'openLog', taskId: n.id }) }, l10n.t('Open Log'))),
    );
  }
}
