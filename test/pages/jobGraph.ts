/** The job graph page as the tests load it (see map.ts): its app on `window.eoJobGraph`. */
import { app } from '../../media/jobGraph/main';

(window as unknown as { eoJobGraph: typeof app }).eoJobGraph = app;
