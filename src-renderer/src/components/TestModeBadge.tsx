import type { Carrier } from '../../../src-shared/schemas/carrier';
import { inTestMode } from '../lib/carrierTestMode';
import { useOperation } from '../lib/useOperation';
import { useOrgId } from '../lib/session';
import { useCarriers } from './CarrierPicker';

/** The organization's carrier catalogue, read once through the cache: it says which carriers have a test mode. */
export function useCarrierCatalogue() {
  const orgId = useOrgId();
  return useOperation('availableCarriers.list', { params: { orgId } });
}

/** TEST beside a carrier in its sandbox (decisions §13), so nobody takes a test label for a real one. */
export function TestBadge({ title = 'This carrier books in its test system (sandbox): nothing is really shipped.' }: { title?: string }) {
  return (
    <span className="test-badge" title={title}>
      TEST
    </span>
  );
}

/** The badge for a carrier given as a read: nothing when it books for real. */
export function CarrierTestBadge({ carrier }: { carrier: Pick<Carrier, 'config' | 'carrierSlug'> }) {
  const catalogue = useCarrierCatalogue();
  return inTestMode(carrier, catalogue.data) ? <TestBadge /> : null;
}

/** The badge for a carrier given by its id (a shipment's), from the cached carrier list. */
export function CarrierTestBadgeById({ carrierId }: { carrierId: string | null | undefined }) {
  const carriers = useCarriers();
  const carrier = carriers.data?.data.find((item) => item.id === carrierId);
  return carrier ? <CarrierTestBadge carrier={carrier} /> : null;
}

/** Whether the carrier of this id books in its sandbox; false until both reads are in. */
export function useCarrierInTestMode(carrierId: string | null | undefined): boolean {
  const carriers = useCarriers();
  const catalogue = useCarrierCatalogue();
  const carrier = carriers.data?.data.find((item) => item.id === carrierId);
  return !!carrier && inTestMode(carrier, catalogue.data);
}
