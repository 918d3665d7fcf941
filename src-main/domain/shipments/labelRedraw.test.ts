import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelDimensions } from '../../documents/labelSizes';
import { setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';
import { sentShipment } from '../../testing/printing';
import { hasPoppler, pdfPages, pdfText } from '../../testing/shippingPapers';

// GET …/documents/{id}/content?format=…: a label drawn again in the other format (USERS 3).
let t: TestServer;
let zplCarrierId: string;
let pdfCarrierId: string;
let senderAddressId: string;

beforeAll(async () => {
  t = await startTestServer();
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId: zplCarrierId, senderAddressId } = await setupLocalCarrier(t, t.org, { labelFormat: 'zpl', labelSize: 'A6', trackingPrefix: 'ZPL' }));
  ({ carrierId: pdfCarrierId } = await setupLocalCarrier(t, t.org, { labelFormat: 'pdf', trackingPrefix: 'PDF' }));
});
afterAll(() => t.close());

const contentPath = (shipmentId: string, documentId: string, query = '') =>
  `/orgs/${t.org.orgId}/shipments/${shipmentId}/documents/${documentId}/content${query}`;
const mmToPoints = (mm: number) => (mm * 72) / 25.4;

describe('a label in the other format', () => {
  it('a ZPL label as a PDF of the same physical size, with the same tracking number, reference and parcel count', async () => {
    const twoParcels = shipmentBody(zplCarrierId, { reference: 'REDRAW-1' });
    twoParcels.parcels = [...twoParcels.parcels, { ...twoParcels.parcels[0], orderLines: [] }] as typeof twoParcels.parcels;
    const shipment = await sentShipment(t, twoParcels);
    const second = shipment.documents[1];
    expect(second).toMatchObject({ documentType: 'label', format: 'zpl', size: 'A6' });

    const pdf = await t.request('GET', contentPath(shipment.id, second.id, '?format=pdf'));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="REDRAW-1-label-${second.id}.pdf"`);
    // Its font is embedded (a viewer's or printer's stand-in for Helvetica runs wider and cuts text off).
    expect(pdf.body.includes('/FontFile2')).toBe(true);
    const pages = await pdfPages(pdf.body);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.width).toBeCloseTo(mmToPoints(labelDimensions.A6.widthMm), 0);
    expect(pages[0]?.height).toBeCloseTo(mmToPoints(labelDimensions.A6.heightMm), 0);
    if (hasPoppler) {
      const text = pdfText(pdf.body);
      expect(text).toContain(shipment.tracking.number);
      expect(text).toContain('REDRAW-1');
      expect(text).toMatch(/2\s*\/\s*2/);
    }

    // The stored ZPL is untouched, and asking for its own format gives exactly it.
    const zpl = await t.request('GET', contentPath(shipment.id, second.id, '?format=zpl'));
    expect(zpl.headers.get('content-type')).toBe('application/zpl');
    expect(Buffer.compare(zpl.body, Buffer.from(second.content, 'base64'))).toBe(0);
    const again = await t.request('GET', `/orgs/${t.org.orgId}/shipments/${shipment.id}`);
    expect(again.body.documents.map((document: { format: string }) => document.format)).toEqual(['zpl', 'zpl']);
  });

  it('a PDF label as ZPL for a thermal printer', async () => {
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const [label] = shipment.documents;
    const zpl = await t.request('GET', contentPath(shipment.id, label.id, '?format=zpl'));
    expect(zpl.status).toBe(200);
    expect(zpl.headers.get('content-type')).toBe('application/zpl');
    const program = zpl.body.toString('utf8');
    expect(program).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(program).toContain(shipment.tracking.number);
  });

  it('papers cannot be drawn as ZPL: 422 DOCUMENT_FORMAT_UNAVAILABLE; an unknown format is 400', async () => {
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: shippingRuleBody(pdfCarrierId, senderAddressId, {
        name: 'With packing list',
        receivingCountries: ['*'],
        conditions: [],
        generatePackingList: true,
      }),
    });
    expect(rule.status).toBe(201);
    const created = await t.request('POST', `/orgs/${t.org.orgId}/shipments`, { body: shipmentBody(pdfCarrierId) });
    await t.request('PATCH', `/orgs/${t.org.orgId}/shipments/${created.body.id}`, { body: { shippingRuleId: rule.body.id } });
    const sent = (await t.request('POST', `/orgs/${t.org.orgId}/shipments/${created.body.id}/send`)).body;
    const packingList = sent.documents.find((document: { documentType: string }) => document.documentType === 'packing_list');

    const refused = await t.request('GET', contentPath(sent.id, packingList.id, '?format=zpl'));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 'DOCUMENT_FORMAT_UNAVAILABLE',
      error: 'Unprocessable Entity',
      message: `Document ${packingList.id} is PDF and cannot be had as ZPL: only labels can be drawn in another format`,
    });
    const unknown = await t.request('GET', contentPath(sent.id, sent.documents[0].id, '?format=png'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
  });
});
