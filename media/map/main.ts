import 'leaflet/dist/leaflet.css';
import '../shared/theme.css';
import './map.css';
import type { MapState } from '../../src/panels/protocol';
import { vscodeApi } from '../shared/vscodeApi';
import { MapApp } from './app';

const root = document.getElementById('root') ?? document.body;
const app = new MapApp(vscodeApi<MapState>(), root);
// Tests and the benchmark reach the app through this handle; the page has nothing secret.
(window as unknown as { eoMap: MapApp }).eoMap = app;
