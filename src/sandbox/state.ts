/**
 * The sandbox's stored state: everything a request can create or that belongs to a user.
 * Records keep the wire shape they were created with plus `t0` (sandbox-clock ms of
 * creation); statuses and progress are derived from `t0` on every read (transitions.ts), so
 * the stored data only changes when a request creates or deletes something.
 */
import type { Aoi, Asset, Delivery, Index, InputValue, LegendItem, OrderItem, Project, Store, Visualization, WorkflowSpec } from '../api/records';

export type UserKey = 'alice' | 'bob';

export interface User {
  id: string;
  key: UserKey;
  name: string;
  org_id: string;
  /** Satellites the user's subscription covers; searching another one is 403. */
  satellites: string[];
  /** Billing rights: without them the order report is 403. */
  canReport: boolean;
}

export interface ProjectRec extends Project {
  owner: string;
  members_count: number;
}

export interface AoiRec extends Aoi {
  t0: number;
  /** An AOI with a season's record of mosaics (src/sandbox/world/seasonal.ts); never sent. */
  seasonal?: SeasonalStyle;
}

/** What makes an AOI's mosaics a season's record: fields or a reservoir, and its cloudy dates. */
export interface SeasonalStyle {
  kind: 'fields' | 'reservoir';
  /** Cloud cover (percent of the scene) by date `YYYY-MM-DD`; dates not listed are clear. */
  cloudy: Record<string, number>;
}

export interface AssetRec extends Asset {
  t0: number;
}

export interface VisRec extends Omit<Visualization, 'assets' | 'legend'> {
  t0: number;
  /**
   * Legends saved with `PUT …/metadata`, by date (`YYYY_MM_DD`) and mode; they replace the
   * computed ones and colour the PNG by their classes until rolled back.
   */
  legend_overrides?: Record<string, { dynamic?: LegendItem[]; theoretical?: LegendItem[] }>;
  /** The derived assets this visualization produced. */
  asset_ids: string[];
  /** The mosaics it was made from (a second request over the same ones is 409). */
  source_ids: string[];
}

export interface ItemRec extends OrderItem {
  /** Outcome of each task, fixed when the item is priced (feasibility decides it). */
  outcomes: boolean[];
}

export interface OrderRec {
  id: string;
  org_id: string;
  user_id: string;
  total_amount: number;
  transaction_id: string;
  created_by: string;
  t0: number;
  /** Seeded orders held in one state: awaiting payment forever, or cancelled and refunded. */
  frozen?: 'unpaid' | 'cancelled';
  items: ItemRec[];
}

export interface StoreRec extends Store {
  owner: string;
  /** Names of the secrets supplied at creation; the values are never kept. */
  secret_keys: string[];
}

export interface DeliveryRec extends Delivery {
  owner: string;
  order_item_id: string;
  t0: number;
  frozen?: 'FAILED';
}

export interface DownloadRec {
  id: string;
  owner: string;
  /** Empty for a download of AOI assets. */
  catalog_ids: string[];
  /** A download of AOI assets (`POST /v0/aois/{aoi_id}/downloads`). */
  aoi_id?: string;
  asset_ids?: string[];
  t0: number;
  frozen?: 'failed';
}

export interface InsightRec {
  id: string;
  owner: string;
  aoi_id: string;
  project_id: string;
  name: string;
  block: { name: string; version: string };
  input: InputValue[];
  /** What the client sent as `metadata` (string map), echoed in the list. */
  metadata?: Record<string, string>;
  /** Tokens the run costs (its estimate, charged on success). */
  cost?: number;
  /** Decided when the run is created: why its inputs cannot be satisfied, if they cannot. */
  failure?: string;
  created_by?: string;
  deleted_at?: string;
  t0: number;
}

export interface WorkflowRec {
  id: string;
  owner: string;
  project_id: string;
  name: string;
  description: string;
  created_by: string;
  /** Checked on every read (src/sandbox/workflows.ts): a spec whose blocks do not fit has `val_errors`. */
  spec: WorkflowSpec;
  t0: number;
  updated_t0: number;
}

export interface JobRec {
  id: string;
  owner: string;
  workflow_id: string;
  project_id: string;
  created_by: string;
  /** The workflow's spec when the job started. */
  spec: WorkflowSpec;
  /** Task ids by task (block step) name. */
  task_ids: Record<string, string>;
  /** Tokens, the workflow's estimate when the job started. */
  cost: number;
  /** How long the job waits for a worker before its first task (default JOB_QUEUED_MS). */
  queue_ms?: number;
  /** Decided when the job starts: the task that fails, halfway through, and why. */
  failure?: { task: string; err_msg: string; failure_type: string };
  t0: number;
}

export interface State {
  version: 1;
  seed: number;
  scale: number;
  projects: ProjectRec[];
  aois: AoiRec[];
  assets: AssetRec[];
  visualizations: VisRec[];
  /** Custom indices only; presets are part of the static world. */
  indices: Index[];
  orders: OrderRec[];
  stores: StoreRec[];
  deliveries: DeliveryRec[];
  downloads: DownloadRec[];
  insights: InsightRec[];
  /** Absent in state files written before workflows existed: seeded on load. */
  workflows: WorkflowRec[];
  jobs: JobRec[];
}
