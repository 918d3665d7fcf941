import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { canSend } from '../shipments/lifecycle';
import { client } from '../../lib/api';
import { describeError } from '../../components/ErrorNotice';
import { sendAndPrint, type PackResult } from './packFlow';
import { boxParcels, needsRepack, restByParcel, weightText, withoutRest, type ScaleWeight, type Verification } from './verification';

type ShownShipment = Extract<PackResult, { kind: 'shipment' }>;

/**
 * Sends a checked shipment (issue 20) with the operations every door has, each one transaction on the
 * server, in an order that leaves nothing half done: first the rest of a short pack is split off into
 * a new shipment (batch split, decisions §7), then the boxes become the parcels (one update), then the
 * send prints the labels as Pack always does. A step that fails stops there with the shipment as it
 * then is, and the verification as it fits it, so Enter again goes on from that step.
 */
export async function finishVerified(
  orgId: string,
  shown: ShownShipment,
  verification: Verification,
  confirmRebook = false,
): Promise<{ result: PackResult; verification: Verification; restShipments: string[] }> {
  let shipment: Shipment = shown.shipment;
  let checked = verification;
  const restShipments: string[] = [];
  const params = { orgId, shipmentId: shipment.id };
  const failed = (error: unknown, title: string) => {
    const described = describeError(error);
    return {
      result: {
        ...shown,
        shipment,
        problem: {
          title,
          detail: described.detail || described.summary,
          ...(described.fieldProblems.length ? { items: described.fieldProblems } : {}),
          code: described.code,
          link: { to: `/shipments/${encodeURIComponent(shipment.id)}`, label: `Open ${shipment.reference}` },
        },
      },
      verification: checked,
      restShipments,
    };
  };

  for (const rest of restByParcel(checked)) {
    try {
      const answer = await client.call('shipments.batchSplit', {
        params: { ...params, parcelId: rest.parcelId },
        body: { shipments: [{ orderLines: rest.orderLines }] },
      });
      shipment = answer.originalShipment;
      restShipments.push(...answer.newShipments.map((made) => made.reference));
    } catch (error) {
      return failed(error, `The items not packed could not be moved out of ${shipment.reference}; nothing was sent`);
    }
  }
  if (restShipments.length) checked = withoutRest(checked);

  if (needsRepack(checked, shipment)) {
    try {
      shipment = await client.call('shipments.update', { params, body: { parcels: boxParcels(checked, shipment) } });
    } catch (error) {
      return failed(error, `The boxes of ${shipment.reference} could not be saved; nothing was sent`);
    }
  }
  const result = await sendAndPrint(orgId, { ...shown, shipment }, confirmRebook);
  return { result, verification: checked, restShipments };
}

/**
 * A weight read while a shipment is shown that is not being checked: the weight of its parcel, saved
 * at once so Enter sends what the scale said. A shipment of several parcels is weighed on its page.
 */
export async function weighShown(orgId: string, shown: PackResult | null, weight: ScaleWeight): Promise<{ ok: boolean; text: string; result?: PackResult }> {
  const read = weightText(weight);
  if (shown?.kind !== 'shipment' || !canSend(shown.shipment.status)) {
    return { ok: false, text: `Read as a weight (${read}), but no shipment is open to weigh: scan an order first.` };
  }
  const { shipment } = shown;
  const [parcel, ...more] = shipment.parcels;
  if (!parcel || more.length) return { ok: false, text: `${shipment.reference} has ${shipment.parcels.length} parcels: weigh each on its page.` };
  if (weight.weight <= 0) return { ok: false, text: 'The scale reads nothing: put the parcel on it and read it again.' };
  try {
    const updated = await client.call('shipments.update', {
      params: { orgId, shipmentId: shipment.id },
      body: { parcels: [{ id: parcel.id, dimensions: parcel.dimensions, orderLines: parcel.orderLines, ...weight }] },
    });
    return { ok: true, text: `${shipment.reference} weighs ${read}`, result: { ...shown, shipment: updated } };
  } catch (error) {
    const described = describeError(error);
    return { ok: false, text: `The weight of ${shipment.reference} could not be saved: ${described.detail || described.summary}` };
  }
}
