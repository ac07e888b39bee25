import 'leaflet/dist/leaflet.css';
import '../shared/theme.css';
import './map.css';
import type { MapState } from '../../src/panels/protocol';
import { loadL10nBundle } from '../shared/l10n';
import { vscodeApi } from '../shared/vscodeApi';
import { MapApp } from './app';

loadL10nBundle();
const root = document.getElementById('root') ?? document.body;
const app = new MapApp(vscodeApi<MapState>(), root);
// Tests and the benchmark reach the app through this handle; the page has nothing secret.
(window as unknown as { eoMap: MapApp }).eoMap = app;
