/**
 * What the extension and the job graph webview exchange: the model and the two tables of
 * messages (each row a message's name, payload and runtime check). Pure, bundled into both
 * ends. Every text the page shows is worded by the extension (the model), so the webview only
 * lays the graph out and draws it.
 */
import { isObj } from '../../api/shape';
import { row, type MessageIn } from '../webview/messages';

/** The look of a task: its colour in the graph and the word in its legend. */
export type TaskLook = 'success' | 'running' | 'waiting' | 'failed' | 'skipped' | 'unknown';

export interface GraphNodeModel {
  /** Unique within the job: the task's id, else its name. */
  id: string;
  name: string;
  /** "water-extent 0.9.1" */
  block: string;
  look: TaskLook;
  /** "Running, 45%", "Success" */
  statusText: string;
  /** 0..100 while running. */
  progress?: number;
  /** "1 min 35 s", when it ran. */
  timeTaken?: string;
  /** A failed task's reason in words. */
  error?: string;
  /** Depth in dependency order (0 without dependencies). */
  level: number;
  /** The tasks it waits for, by name, the first few named and the rest counted; empty when none. */
  dependsOn: string;
}

export interface JobGraphModel {
  /** "Crop health of Nile Delta fields: job of 2026-11-25 14:57 UTC" */
  title: string;
  /** "Running, 45% · 102 tokens · 1 min 37 s" */
  summary: string;
  /** Why the dependencies cannot all be drawn (an unknown task, a circle), in words; empty when they can. */
  problems: string;
  /** Every task, in dependency order (the service's order when that cannot be had). */
  nodes: GraphNodeModel[];
  /** How many of `nodes`, from the first, the graph draws; the list shows every one. */
  drawn: number;
  /** What the graph leaves out (tasks past `drawn`, dependencies), in words; empty when it draws everything. */
  drawnNote: string;
  /** The dependencies drawn: [from (the dependency), to (the task waiting)] by node id, both drawn. */
  edges: [string, string][];
  /** True while the job is followed (not final). */
  live: boolean;
}

export interface JobGraphState {
  workflowId: string;
  jobId: string;
  workflowName: string;
}

/** From the extension to the page. */
export const JOB_GRAPH_TO_PAGE = {
  /** `state`: what the webview keeps (setState) so that a reloaded window can bring the panel back. */
  graph: row<{ model: JobGraphModel; state: JobGraphState }>((m) => isObj(m.model)),
  error: row<{ message: string }>(),
  loading: row<{ label: string }>(),
};

/** From the page to the extension. */
export const JOB_GRAPH_FROM_PAGE = {
  ready: row(),
  /** A task's Open Log (its node or its row). */
  openLog: row<{ taskId: string }>((m) => typeof m.taskId === 'string'),
  /** Try Again after a failed read. */
  refresh: row(),
};

export type ToJobGraphMessage = MessageIn<typeof JOB_GRAPH_TO_PAGE>;
export type FromJobGraphMessage = MessageIn<typeof JOB_GRAPH_FROM_PAGE>;
