import type { CarrierProduct, DocumentFormat, LabelSize } from '../../../src-shared/schemas/carrier';
import type { CarrierConfig, LabelSpec } from '../adapter';

/**
 * DHL Express's global product codes (the `productCode` of a MyDHL booking) and the value-added
 * services Shipdesk offers with them. Which of them an account may use between two countries is
 * DHL's to say (its /products call); a product the lane does not have is refused at booking.
 */

/** Our service ids, DHL's value-added service codes. */
export const dhlServices: Record<string, { name: string; serviceCode: string }> = {
  insurance: { name: 'Shipment insurance (II): insured for the declared value, or the additional parameter insuredValue', serviceCode: 'II' },
  saturdayDelivery: { name: 'Saturday delivery (AA)', serviceCode: 'AA' },
  dutiesTaxesPaid: { name: 'Duties and taxes paid by the sender (DD), with the DDP term of trade', serviceCode: 'DD' },
  directSignature: { name: 'Direct signature (SF): only against the receiver’s signature', serviceCode: 'SF' },
  neutralDelivery: { name: 'Neutral delivery (NN): no prices or sender details shown to the receiver', serviceCode: 'NN' },
};

/** The shipment's additional parameters an insured booking reads: the amount, and its currency. */
export const INSURED_VALUE_PARAMETER = 'insuredValue';
export const INSURED_CURRENCY_PARAMETER = 'insuredCurrency';

const service = (serviceId: string) => ({ serviceId, name: dhlServices[serviceId]!.name });
const goodsServices = ['insurance', 'saturdayDelivery', 'dutiesTaxesPaid', 'directSignature', 'neutralDelivery'].map(service);
const domesticServices = ['insurance', 'saturdayDelivery', 'directSignature'].map(service);
const documentServices = ['insurance', 'saturdayDelivery', 'directSignature'].map(service);
const dhlLabelSizes: LabelSize[] = ['A6', 'A4'];

const product = (productId: string, name: string, description: string, services: CarrierProduct['services']): CarrierProduct => ({
  productId,
  name,
  type: 'outbound',
  description,
  services,
  labelSizes: dhlLabelSizes,
  servicePoint: 'none',
});

export const dhlProducts: readonly CarrierProduct[] = [
  product('P', 'DHL EXPRESS WORLDWIDE', 'Goods worldwide by the end of the next possible working day, customs cleared by DHL.', goodsServices),
  product('D', 'DHL EXPRESS WORLDWIDE (documents)', 'Documents of no commercial value worldwide, no customs declaration.', documentServices),
  product('U', 'DHL EXPRESS WORLDWIDE (EU)', 'Goods between two countries of the EU customs union.', goodsServices),
  product('K', 'DHL EXPRESS 9:00', 'Delivered by 9:00 on the next possible working day, where the destination has it.', goodsServices),
  product('T', 'DHL EXPRESS 12:00', 'Delivered by noon on the next possible working day, where the destination has it.', goodsServices),
  product('N', 'DHL DOMESTIC EXPRESS', 'Within one country, by the end of the next working day.', domesticServices),
  product('W', 'DHL ECONOMY SELECT', 'Heavier, less urgent goods by road, outside the EU customs union.', goodsServices),
  product('H', 'DHL ECONOMY SELECT (EU)', 'Heavier, less urgent goods by road within the EU customs union.', goodsServices),
];

/** Products for documents only: never declared to customs. */
export const DOCUMENT_PRODUCTS = new Set(['D']);

/** DHL's transport label templates: the A6 label on its own, or the 8 × 4 in label on an A4 page. */
export const labelTemplates: Record<'A6' | 'A4', string> = { A6: 'ECOM26_A6_002', A4: 'ECOM26_84_A4_001' };

/** PDF on an A6 page by default; ZPL for thermal printers (the A6 template at 200 or 300 dpi). */
export function dhlLabelDefaults(config: CarrierConfig): LabelSpec {
  const format: DocumentFormat = config.labelFormat === 'zpl' ? 'zpl' : 'pdf';
  const size: LabelSize = format === 'pdf' && config.labelSize === 'A4' ? 'A4' : 'A6';
  return { format, size };
}

/** The size DHL draws: a ZPL label is always the A6 template, a PDF one A6 unless A4 is asked for. */
export const drawnSize = (label: LabelSpec): 'A6' | 'A4' => (label.format === 'pdf' && label.size === 'A4' ? 'A4' : 'A6');

export const printerDpiOf = (config: CarrierConfig): 200 | 300 => (config.printerDpi === '300' || config.printerDpi === 300 ? 300 : 200);
