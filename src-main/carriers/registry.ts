import type { CarrierAdapter } from './adapter';
import { dhlExpressCarrier } from './dhlExpress/adapter';
import { glsCarrier } from './gls/adapter';
import { karrioCarrier } from './karrio/adapter';
import { localCarrier } from './local';
import { postnordCarrier } from './postnord/adapter';
import { upsCarrier } from './ups/adapter';

/** Every carrier this build can book with; a real carrier adapter is added to this list. */
export const carrierAdapters: readonly CarrierAdapter[] = [localCarrier, postnordCarrier, glsCarrier, karrioCarrier, dhlExpressCarrier, upsCarrier];
