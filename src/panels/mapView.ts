/**
 * What commands can do with the map, through `Panels` (src/panels/index.ts): they never see the
 * panel class, its webview or its singleton.
 */
import type { ArchiveItem } from '../api/records';
import type { ClipChannel } from './imagery/clipChannel';
import type { ImageryLayerSpec, TimeFrame } from './imagery/protocol';
import type { TimelapseChannel } from './imagery/timelapseChannel';
import type { SeriesChannel, SeriesState } from './imagery/seriesChannel';
import type { MapTarget } from './mapData';
import type { LayerKind, MapFeature, MapViewState, SearchParams } from './protocol';
import type { SeriesPoint, SeriesRequest } from './imagery/seriesMessages';
import type { TimelapseRequest, TimelapseResult } from './imagery/timelapseMessages';

export interface MapView {
  /** Puts records on a layer (kept, so they come back when the webview reloads). */
  showTarget(t: MapTarget, opts?: { fit?: boolean; select?: boolean; mode?: 'replace' | 'append'; reveal?: boolean }): void;
  /** What a layer shows now (the AOIs on the map are offered as a search area). */
  shown(layer: LayerKind): readonly MapFeature[];
  startDraw(shape: 'rectangle' | 'polygon', intent: 'search' | 'aoi'): void;
  /**
   * Draws a GeoTIFF on the map (an archive item, an AOI asset, a visualization, or any COG such
   * as an insight's output): the layer list shows its progress and problems. `previewUrl` is a
   * picture shown over the footprint until the pixels arrive.
   */
  showImagery(spec: ImageryLayerSpec, opts?: { previewUrl?: string; fit?: boolean }): void;
  /** Two layers side by side with a swipe divider (src/commands/imagery/compare.ts). */
  showCompare(left: ImageryLayerSpec, right: ImageryLayerSpec, opts?: { position?: number; mode?: 'swipe' | 'flicker'; fit?: boolean }): void;
  /** A time slider over one place's dates (src/commands/imagery/timeSlider.ts); `date` shown first. */
  showTimeline(title: string, frames: TimeFrame[], opts?: { date?: string; fit?: boolean }): void;
  /**
   * "Chart Index Over Time": the webview reads each date's tiles inside the polygon and charts
   * the statistics; `onPoint` hears each date as it arrives. Aborting cancels the reads.
   */
  chartSeries(
    request: SeriesRequest,
    o?: { onPoint?(index: number, point: SeriesPoint, state: SeriesState): void; signal?: AbortSignal; overlay?: boolean },
  ): Promise<SeriesState>;
  /** The chart's channel: the last series, the chart as PNG. */
  readonly series: SeriesChannel;
  /**
   * "Export Timelapse…": the webview draws each date as the time slider would and encodes the
   * frames; `onProgress` hears each date. Aborting stops the reads and the encoder.
   */
  timelapse(request: TimelapseRequest, o?: { onProgress?(done: number, total: number, date: string): void; signal?: AbortSignal }): Promise<TimelapseResult>;
  /** The timelapse channel: what the time slider shows. */
  readonly timelapses: TimelapseChannel;
  /** A row in the layer list saying why a record cannot be drawn (e.g. an `s3://` path). */
  imageryNote(id: string, title: string, text: string): void;
  notice(text: string, level?: 'info' | 'error'): void;
  /**
   * Runs a saved search in the webview: its form, its area drawn, its results listed. `useForm`:
   * over `params.ring` with the form's own filters (Search Archive Here), the default dates
   * taking in `anchors` (days the place has imagery).
   */
  runSearch(params: SearchParams, opts?: { useForm?: boolean; anchors?: string[] }): void;
  /** Searches the area the map shows now, with the form's filters. */
  searchView(): void;
  /** The last search the webview ran ("Save Search…" from the command palette saves it). */
  readonly lastSearch: SearchParams | undefined;
  /** The items of the map's current search, in the order they came. */
  readonly searchResults: ArchiveItem[];
  /** "Save View to GeoTIFF…/PNG": the webview reads and encodes, the command writes. */
  readonly clips: ClipChannel;
  /** Where the map is and what it shows, as the page last said (Copy Link to This View checks it). */
  readonly viewState: MapViewState | undefined;
  /** Moves the map to `center` ([lat, lon]) at `zoom` (a shared view opened). */
  setView(center: [number, number], zoom: number): void;
  /**
   * Brings the map forward. `keepFocus` leaves the keyboard where it is: a command that asks
   * next (a quick pick) must not have the map's page take the focus after the pick opened,
   * which closes the pick as if Escape was pressed.
   */
  reveal(keepFocus?: boolean): void;
}
