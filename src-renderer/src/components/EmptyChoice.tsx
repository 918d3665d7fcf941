import { Link } from '../app/router';

/** Where each kind of choice is made: its settings screen, with its "New …" form open (`?new`). */
export const creationPlaces = {
  senderAddress: { to: '/settings/sender-addresses?new', what: 'sender address', action: 'Add a sender address' },
  carrier: { to: '/settings/carriers?new', what: 'carrier', action: 'Add a carrier' },
  orderChannel: { to: '/settings/order-channels?new', what: 'order channel', action: 'Add an order channel' },
  shippingRule: { to: '/settings/shipping-rules?new', what: 'shipping rule', action: 'Add a shipping rule' },
  printer: { to: '/settings/printers?new', what: 'printer', action: 'Add a printer' },
} as const;

export type CreationPlace = keyof typeof creationPlaces;

/**
 * No dead end (issue 20): a choice with nothing to choose from says so beside it and links to where
 * that thing is made. Shown only once the list has loaded and is empty.
 */
export function EmptyChoice({ of, options, note }: { of: CreationPlace; options: readonly unknown[] | undefined | null; note?: string }) {
  if (!options || options.length > 0) return null;
  const place = creationPlaces[of];
  return (
    <p className="empty-choice">
      No {place.what} yet{note ? ` ${note}` : ''}. <Link to={place.to}>{place.action}</Link>
    </p>
  );
}
