import 'leaflet/dist/leaflet.css';
import '../shared/theme.css';
import './map.css';
import type { MapState } from '../../src/panels/protocol';
import { loadL10nBundle } from '../shared/l10n';
import { vscodeApi } from '../shared/vscodeApi';
import { MapApp } from './app';

loadL10nBundle();
const root = document.getElementById('root') ?? document.body;
/** The page's app (test/pages builds a page that shows it to the tests). */
export const app = new MapApp(vscodeApi<MapState>(), root);
