import { ApiError, type ErrorDetail } from '../../../src-shared/errors';
import type { ParcelInput } from '../../../src-shared/schemas/shipment';

/**
 * Parcel and line ids in a body (interface 4.1 gives `parcels` the shapes of part 2, ids included),
 * so a script can read a shipment, change a weight and send the parcels back. An id keeps a parcel or
 * line of this shipment under the id it has: split paths, `orderLineIds` and labels refer to them.
 * An id this shipment does not have is a 400, never taken as a new id; on create no id is known.
 */
/** The stored parcels, as far as their ids go. */
type KnownParcel = { id: string; lines: readonly { id: string }[] };

export function assertKnownParcelIds(input: readonly ParcelInput[], existing: readonly KnownParcel[]): void {
  const parcelIds = new Set(existing.map((parcel) => parcel.id));
  const lineIds = new Set(existing.flatMap((parcel) => parcel.lines.map((line) => line.id)));
  const seen = new Set<string>();
  const problems: ErrorDetail[] = [];
  const check = (id: string | undefined, path: string, known: Set<string>, what: string) => {
    if (id === undefined) return;
    if (!known.has(id)) problems.push({ path, message: `${id} is not ${what} of this shipment; leave id out for a new one` });
    else if (seen.has(id)) problems.push({ path, message: `${id} is given twice` });
    seen.add(id);
  };
  input.forEach((parcel, p) => {
    check(parcel.id, `body.parcels.${p}.id`, parcelIds, 'a parcel');
    parcel.orderLines.forEach((line, l) => check(line.id, `body.parcels.${p}.orderLines.${l}.id`, lineIds, 'an order line'));
  });
  const [first] = problems;
  if (first) throw new ApiError('VALIDATION_FAILED', `Invalid ${first.path}: ${first.message}`, { details: problems });
}
