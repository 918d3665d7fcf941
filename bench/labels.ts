/**
 * Label renderer throughput, one label at a time as the send path renders them.
 * Run: npx tsx bench/labels.ts [count]   (prints figures, asserts nothing)
 */
import type { DocumentFormat, LabelSize } from '../src-shared/schemas/carrier';
import { renderLabel, type LabelData } from '../src-main/documents/label';

const count = Number(process.argv[2] ?? 2000);
const warmUp = 500;

/**
 * Two receivers: one whose name WinAnsi can show (Helvetica, nothing embedded: most labels of a
 * Danish warehouse) and one it cannot (DejaVu Sans embedded, subset to the glyphs used).
 */
const attentions = { winansi: 'Lise Møller', unicode: 'Łukasz Wołodźko' } as const;
type Script = keyof typeof attentions;

function label(index: number, script: Script): LabelData {
  return {
    carrierName: 'Local delivery',
    productName: 'Own delivery, parcel',
    trackingNumber: `LOC${String(100000 + index).padStart(9, '0')}`,
    reference: `ORDER-${10000 + index}`,
    sender: {
      name: 'Shipdesk Warehouse ApS',
      attention: 'Shipping',
      address1: 'Lagervej 12',
      postalCode: '8000',
      city: 'Aarhus C',
      countryCode: 'DK',
      phone: '+45 12345678',
    },
    receiver: {
      name: `Søren Ærø Åberg ${index}`,
      attention: attentions[script],
      address1: 'Nørrebrogade 1, 3. tv',
      address2: 'c/o Hansen',
      postalCode: '2200',
      city: 'København N',
      countryCode: 'DK',
      phone: '+45 87654321',
    },
    parcelNumber: 1 + (index % 3),
    parcelCount: 3,
    weightKg: 1.25,
    createdAt: '2026-03-04T12:00:00Z',
    servicePointId: index % 2 === 0 ? 'SP-4411' : null,
  };
}

async function measure(format: DocumentFormat, size: LabelSize, script: Script): Promise<void> {
  for (let i = 0; i < warmUp; i++) await renderLabel(label(i, script), format, size);
  let bytes = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let i = 0; i < count; i++) bytes += (await renderLabel(label(i, script), format, size)).length;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  // CPU time as well as wall time: on a shared machine the wall figure moves with everything else running.
  const cpuMs = (cpu.user + cpu.system) / 1000 / count;
  const perSecond = Math.round(count / seconds);
  const average = Math.round(bytes / count);
  console.log(
    `labels ${format} ${size} ${script}: ${perSecond}/s (${((seconds * 1000) / count).toFixed(2)} ms each, ${cpuMs.toFixed(2)} ms CPU, ${average} bytes)`,
  );
}

console.log(`node ${process.version}, ${count} labels per run after ${warmUp} warm-up`);
for (const script of ['winansi', 'unicode'] as const) {
  for (const size of ['100X150', 'A6', '100X192', 'A4'] as const) await measure('pdf', size, script);
}
for (const size of ['100X150', 'A4'] as const) await measure('zpl', size, 'unicode');
