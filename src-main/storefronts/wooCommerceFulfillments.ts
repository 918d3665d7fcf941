/**
 * The write-back to WooCommerce (issue 22), REST API v3 with HTTP Basic (consumer key and secret; the
 * key needs Read/Write permission):
 *  - `PUT /wp-json/wc/v3/orders/{id}` `{status: "completed"}` once every line of the order has shipped
 *    (first, and harmless to repeat, so a note is never left without it);
 *  - `POST /wp-json/wc/v3/orders/{id}/notes` `{note, customer_note}`: carrier, tracking number and link;
 *    `customer_note` true makes it visible to the customer and WooCommerce e-mails it — asked for only
 *    when Shipdesk sends no dispatch e-mail of its own. A tracking change adds a new note (WooCommerce
 *    notes cannot be edited through the API).
 * Read-back: `GET /wp-json/wc/v3/orders/{id}/notes`, the note naming this tracking number.
 */
import { orderChannelConfigSchemas } from '../../src-shared/schemas/orderChannel';
import type { StorefrontTransport } from './http';
import { ShopWriteError, shopCall } from './writeHttp';
import { isObjectList, record, str, type ShopFulfillment, type StorefrontWriter, type WrittenFulfillment } from './types';

const platform = 'WooCommerce';

function connection(rawConfig: Record<string, unknown>, fulfillment: ShopFulfillment) {
  const parsed = orderChannelConfigSchemas.woocommerce.safeParse(rawConfig);
  if (!parsed.success) throw new ShopWriteError('CONFIG_INVALID', "WooCommerce: the channel's site URL or API keys are missing");
  const { siteUrl, consumerKey, consumerSecret } = parsed.data;
  if (!/^\d+$/.test(fulfillment.orderExternalId)) {
    throw new ShopWriteError('ORDER_UNKNOWN', `WooCommerce: ${fulfillment.orderExternalId} is not a WooCommerce order id`);
  }
  const base = siteUrl.replace(/\/+$/, '');
  return {
    order: `${base}/wp-json/wc/v3/orders/${fulfillment.orderExternalId}`,
    headers: { authorization: `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}` },
  };
}

/** The note's text; it names the tracking number, which is how the read-back finds it. */
export function wooNoteText(fulfillment: ShopFulfillment): string {
  const carrier = fulfillment.carrierName || 'the carrier';
  const first = fulfillment.remoteId
    ? `The tracking number of your shipment with ${carrier} changed: it is now ${fulfillment.trackingNumber}.`
    : `Your order has been shipped with ${carrier}. Tracking number: ${fulfillment.trackingNumber}.`;
  return fulfillment.trackingUrl ? `${first} Track your parcel: ${fulfillment.trackingUrl}` : first;
}

export function wooCommerceWriter(transport: StorefrontTransport): StorefrontWriter {
  return {
    async writeFulfillment(config, fulfillment): Promise<WrittenFulfillment> {
      const { order, headers } = connection(config, fulfillment);
      if (fulfillment.orderFullyShipped) await shopCall(transport, platform, 'PUT', new URL(order), headers, { status: 'completed' });
      const answer = await shopCall(transport, platform, 'POST', new URL(`${order}/notes`), headers, {
        note: wooNoteText(fulfillment),
        customer_note: fulfillment.notifyCustomer,
      });
      const id = str(record(answer.body)?.id);
      if (!id) throw new ShopWriteError('INVALID_RESPONSE', 'WooCommerce: the answer to the order note named no note');
      return { remoteId: id, trackingNumber: fulfillment.trackingNumber };
    },

    async findFulfillment(config, fulfillment): Promise<WrittenFulfillment | null> {
      const { order, headers } = connection(config, fulfillment);
      // Newest first, 100 a page: the note written moments ago is on the first page.
      const answer = await shopCall(transport, platform, 'GET', new URL(`${order}/notes?type=any`), headers);
      if (!isObjectList(answer.body)) throw new ShopWriteError('INVALID_RESPONSE', "WooCommerce: the order's notes were not a list");
      const note = answer.body.find((item) => str(item.note)?.includes(fulfillment.trackingNumber));
      const id = note ? str(note.id) : null;
      if (!id) return null;
      // The status is set before the note, so a note found means it was set too.
      return { remoteId: id, trackingNumber: fulfillment.trackingNumber };
    },
  };
}
