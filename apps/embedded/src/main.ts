import { runService } from '@pss/host';
import { EMBEDDED_MODULES } from './embedded.modules';

/** `npm start`: the whole service in one process on the embedded adapters. */
runService('embedded', EMBEDDED_MODULES);
