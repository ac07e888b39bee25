import 'leaflet/dist/leaflet.css';
import '../shared/theme.css';
import './map.css';
import type { MapState } from '../../src/panels/protocol';
import { exposeApp } from '../shared/exposeApp';
import { loadL10nBundle } from '../shared/l10n';
import { vscodeApi } from '../shared/vscodeApi';
import { MapApp } from './app';

loadL10nBundle();
const root = document.getElementById('root') ?? document.body;
exposeApp('eoMap', new MapApp(vscodeApi<MapState>(), root));
