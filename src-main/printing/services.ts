import type { AppContext } from '../app/kernel/context';
import { cupsDriver } from './cups';
import { discoverCupsPrinters } from './discover';
import type { PrintingServices } from './driver';
import { fileDriver } from './file';
import { rawDriver } from './raw';

/** Printing under plain Node (headless server, CLI, tests): the spooler, port 9100 and folders. */
export function nodePrinting(): PrintingServices {
  return {
    drivers: { cups: cupsDriver(), raw: rawDriver(), file: fileDriver() },
    discover: discoverCupsPrinters,
  };
}

/** The process's printing: what was passed in AppContext (the desktop app's), else the Node drivers (cheap to make). */
export function printingOf(app: AppContext): PrintingServices {
  return app.printing ?? nodePrinting();
}
