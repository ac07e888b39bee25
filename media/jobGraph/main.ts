import '../shared/theme.css';
import './jobGraph.css';
import type { JobGraphState } from '../../src/panels/jobGraph/protocol';
import { loadL10nBundle } from '../shared/l10n';
import { vscodeApi } from '../shared/vscodeApi';
import { JobGraphApp } from './app';

loadL10nBundle();
const root = document.getElementById('root') ?? document.body;
/** The page's app (test/pages builds a page that shows it to the tests). */
export const app = new JobGraphApp(vscodeApi<JobGraphState>(), root);
