/** The STAC item page as the tests load it (see map.ts): its app on `window.eoStac`. */
import { app } from '../../media/stacItem/main';

(window as unknown as { eoStac: typeof app }).eoStac = app;
