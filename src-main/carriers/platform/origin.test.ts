import { describe, expect, it } from 'vitest';
import { carrierUrl, gatewayUrl, isTestMode } from './origin';

// GLS ShipIT's published servers: the documented path prefix is part of the server address.
const gls = {
  production: 'https://api.gls-group.net/shipit-farm/v1/backend',
  sandbox: 'https://api-sandbox.gls-group.net/shipit-farm/v1/backend',
};
const postnord = { production: 'https://api2.postnord.com/', sandbox: 'https://atapi2.postnord.com/' };

describe('carrierUrl', () => {
  it('uses the sandbox while testMode is unset or true, production only when it is false', () => {
    expect(carrierUrl({}, gls, '/rs/shipments')).toBe('https://api-sandbox.gls-group.net/shipit-farm/v1/backend/rs/shipments');
    expect(carrierUrl({ testMode: true }, gls, '/rs/shipments')).toBe('https://api-sandbox.gls-group.net/shipit-farm/v1/backend/rs/shipments');
    expect(carrierUrl({ testMode: false }, gls, '/rs/shipments')).toBe('https://api.gls-group.net/shipit-farm/v1/backend/rs/shipments');
  });

  it('apiBaseUrl replaces the scheme, host and port only: the documented path stays whole', () => {
    expect(carrierUrl({ apiBaseUrl: 'http://127.0.0.1:41234' }, gls, '/rs/shipments')).toBe('http://127.0.0.1:41234/shipit-farm/v1/backend/rs/shipments');
    expect(carrierUrl({ apiBaseUrl: 'http://127.0.0.1:41234/' }, gls, '/rs/shipments/cancel/ABC123')).toBe(
      'http://127.0.0.1:41234/shipit-farm/v1/backend/rs/shipments/cancel/ABC123',
    );
    // The same in production: testMode no longer picks the host, but still nothing of the path changes.
    expect(carrierUrl({ apiBaseUrl: 'https://proxy.example.com:8443', testMode: false }, gls, '/rs/shipments')).toBe(
      'https://proxy.example.com:8443/shipit-farm/v1/backend/rs/shipments',
    );
    // A path on apiBaseUrl is not a prefix for these carriers (only Karrio's gateway takes one).
    expect(carrierUrl({ apiBaseUrl: 'http://proxy.local:8080/some/prefix' }, gls, '/rs/shipments')).toBe(
      'http://proxy.local:8080/shipit-farm/v1/backend/rs/shipments',
    );
  });

  it('an empty apiBaseUrl means the carrier’s own address', () => {
    expect(carrierUrl({ apiBaseUrl: '' }, gls, '/rs/shipments')).toBe('https://api-sandbox.gls-group.net/shipit-farm/v1/backend/rs/shipments');
  });

  it('a documented origin with no path or a trailing slash gives no double slash', () => {
    expect(carrierUrl({}, postnord, '/rest/shipment/v3/edi/labels/pdf')).toBe('https://atapi2.postnord.com/rest/shipment/v3/edi/labels/pdf');
    expect(carrierUrl({ testMode: false }, postnord, '/rest/shipment/v3/edi/labels/pdf')).toBe('https://api2.postnord.com/rest/shipment/v3/edi/labels/pdf');
    expect(carrierUrl({ apiBaseUrl: 'http://127.0.0.1:5000' }, postnord, '/rest/shipment/v3/edi')).toBe('http://127.0.0.1:5000/rest/shipment/v3/edi');
  });
});

describe('gatewayUrl', () => {
  it('keeps the whole apiBaseUrl as the prefix of the gateway’s paths', () => {
    expect(gatewayUrl({ apiBaseUrl: 'https://karrio.example.com' }, '/v1/shipments')).toBe('https://karrio.example.com/v1/shipments');
    expect(gatewayUrl({ apiBaseUrl: 'https://example.com/karrio/api/' }, '/v1/shipments')).toBe('https://example.com/karrio/api/v1/shipments');
    expect(gatewayUrl({ apiBaseUrl: 'http://127.0.0.1:5002//' }, '/v1/connections')).toBe('http://127.0.0.1:5002/v1/connections');
    // testMode does not move a gateway: the user's server decides.
    expect(gatewayUrl({ apiBaseUrl: 'https://karrio.example.com', testMode: false }, '/v1/shipments')).toBe('https://karrio.example.com/v1/shipments');
  });
});

describe('isTestMode', () => {
  it('is on until switched off with false', () => {
    expect(isTestMode({})).toBe(true);
    expect(isTestMode({ testMode: true })).toBe(true);
    expect(isTestMode({ testMode: false })).toBe(false);
    // Anything but the boolean false keeps the sandbox: nothing real is booked by a malformed value.
    expect(isTestMode({ testMode: 'false' })).toBe(true);
    expect(isTestMode({ testMode: null })).toBe(true);
  });
});
