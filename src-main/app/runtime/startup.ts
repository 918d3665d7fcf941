import type { AppContext } from '../kernel/context';
import { recoverInterruptedBookings } from '../../domain/shipments/booking';
import { failInterruptedPrintJobs } from '../../domain/printing/jobs';
import { recoverInterruptedPickups } from '../../domain/pickups/pickups';
import { releaseInterruptedCloseOuts } from '../../domain/closeOuts/closeOuts';

/**
 * Work done once when a process opens the database, before it serves anything. Later features add
 * their recovery steps here.
 */
export function runStartupChores(app: AppContext): void {
  // Shipments left in `processing` by a crash during a carrier call go to error, with an entry saying so.
  recoverInterruptedBookings(app);
  // Print jobs left queued or printing by a crash become failed with a message, ready to retry.
  failInterruptedPrintJobs(app);
  // Pickups left `booking` by a crash during the carrier call become failed, asking the user to check with the carrier.
  recoverInterruptedPickups(app);
  // Close-outs left `closing` by a crash are released: their shipments wait for the next close-out.
  releaseInterruptedCloseOuts(app);
}
