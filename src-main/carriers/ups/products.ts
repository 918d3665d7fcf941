import type { CarrierProduct, LabelSize } from '../../../src-shared/schemas/carrier';

/**
 * UPS's service codes as Shipdesk offers them (Shipping API, Service.Code). The names are the
 * contract's; where UPS sells the same code under another name in Europe, the description says so.
 * Left out: UPS Access Point Economy (it needs an access point, and this adapter has no Locator lookup yet), Mail Innovations, UPS Today, freight, Roadie and Trade Direct, which need contracts and
 * containers this adapter does not send.
 */
const services: readonly { code: string; name: string; description: string }[] = [
  { code: '11', name: 'UPS Standard', description: 'Day-definite road delivery within Europe and to and from Canada and Mexico.' },
  {
    code: '65',
    name: 'UPS Saver (Express Saver)',
    description: 'Express by the end of the day; sold as UPS Express Saver in Europe and Worldwide Saver from the US.',
  },
  { code: '07', name: 'UPS Express (Worldwide Express)', description: 'Express by midday or the morning, worldwide.' },
  { code: '54', name: 'UPS Express Plus (Worldwide Express Plus)', description: 'Express early in the morning.' },
  { code: '74', name: 'UPS Express 12:00', description: 'Express by noon within Europe.' },
  { code: '08', name: 'UPS Expedited (Worldwide Expedited)', description: 'Scheduled delivery outside Europe, slower than Express.' },
  { code: '72', name: 'UPS Worldwide Economy DDP', description: 'Economy service with duties paid by the sender.' },
  { code: '17', name: 'UPS Worldwide Economy DDU', description: 'Economy service with duties paid by the receiver.' },
  { code: '01', name: 'UPS Next Day Air', description: 'US domestic: next business day.' },
  { code: '14', name: 'UPS Next Day Air Early', description: 'US domestic: next business day, early morning.' },
  { code: '13', name: 'UPS Next Day Air Saver', description: 'US domestic: next business day, end of day.' },
  { code: '02', name: 'UPS 2nd Day Air', description: 'US domestic: second business day.' },
  { code: '59', name: 'UPS 2nd Day Air A.M.', description: 'US domestic: second business day, morning.' },
  { code: '12', name: 'UPS 3 Day Select', description: 'US domestic: third business day.' },
  { code: '03', name: 'UPS Ground', description: 'US domestic ground delivery.' },
];

export const UPS_SERVICE_CODES: readonly string[] = services.map((service) => service.code);
export const upsServiceName = (code: string) => services.find((service) => service.code === code)?.name ?? `UPS service ${code}`;

const upsLabelSizes: LabelSize[] = ['100X150', '100X192'];

export const upsProducts: readonly CarrierProduct[] = services.map((service) => ({
  productId: service.code,
  name: service.name,
  type: 'outbound',
  description: service.description,
  services: [],
  labelSizes: upsLabelSizes,
  servicePoint: 'none',
}));
