import '../shared/theme.css';
import './jobGraph.css';
import type { JobGraphState } from '../../src/panels/jobGraph/protocol';
import { exposeApp } from '../shared/exposeApp';
import { loadL10nBundle } from '../shared/l10n';
import { vscodeApi } from '../shared/vscodeApi';
import { JobGraphApp } from './app';

loadL10nBundle();
const root = document.getElementById('root') ?? document.body;
exposeApp('eoJobGraph', new JobGraphApp(vscodeApi<JobGraphState>(), root));
