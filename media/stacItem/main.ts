import 'leaflet/dist/leaflet.css';
import '../shared/theme.css';
import './stacItem.css';
import type { StacState } from '../../src/panels/protocol';
import { vscodeApi } from '../shared/vscodeApi';
import { StacItemApp } from './app';

const root = document.getElementById('root') ?? document.body;
(window as unknown as { eoStac: StacItemApp }).eoStac = new StacItemApp(vscodeApi<StacState>(), root);
