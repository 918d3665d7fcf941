import { z } from 'zod';
import { printJobSchema } from './printing';
import { shipmentSchema } from './shipment';

/**
 * What a send answers: the shipment, and beside its fields the print jobs the send started (the
 * applied rule's automatic print, on the station's printers when they fit; also its return's label),
 * `[]` when it printed nothing. A packing station then knows what came out without asking the
 * print-job log. In a file of its own: it joins the shipment and printing schemas.
 */
export const sendResponse = shipmentSchema.extend({ printJobs: z.array(printJobSchema) });
export type SendResponse = z.output<typeof sendResponse>;
