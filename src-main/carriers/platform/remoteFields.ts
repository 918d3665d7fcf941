import type { CarrierField } from '../../../src-shared/schemas/carrier';
import type { CarrierAdapter, CarrierConfig, ConfigIssue } from '../adapter';
import { DEFAULT_CALLS_AT_A_TIME } from './callSlots';

/**
 * The config fields every carrier reached over the network has (decisions §13), added here once
 * rather than by each adapter: its sandbox switch, the base URL that replaces its documented host,
 * and how many calls it may have running at a time.
 */
export function remoteFields(adapter: CarrierAdapter): CarrierField[] {
  if (!adapter.remote) return [];
  const required = adapter.remote.apiBaseUrlRequired === true;
  return [
    {
      name: 'Test mode',
      key: 'testMode',
      type: 'boolean',
      description: "Book in the carrier's test system (sandbox): nothing is really shipped and every screen says TEST. On until you switch it off.",
      options: [],
      required: false,
    },
    {
      name: 'API base URL',
      key: 'apiBaseUrl',
      type: 'string',
      description: required
        ? 'The address of your server, with its path prefix if it has one, e.g. https://karrio.example.com'
        : "Leave empty to use the carrier's own address. Set it only to go through a proxy: it replaces the scheme, host and port.",
      options: [],
      required,
    },
    {
      name: 'Calls at a time',
      key: 'callsAtATime',
      type: 'number',
      description: `How many calls to this carrier may run at once, so batch sends stay within its limits. Default ${DEFAULT_CALLS_AT_A_TIME}.`,
      options: [],
      required: false,
    },
  ];
}

export function remoteConfigIssues(config: CarrierConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const base = config.apiBaseUrl;
  if (typeof base === 'string' && base !== '' && !isHttpUrl(base)) {
    issues.push({ key: 'apiBaseUrl', message: 'Must be an http:// or https:// address, e.g. https://proxy.example.com' });
  }
  const calls = config.callsAtATime;
  if (typeof calls === 'number' && !(Number.isInteger(calls) && calls >= 1 && calls <= 32)) {
    issues.push({ key: 'callsAtATime', message: 'Must be a whole number from 1 to 32' });
  }
  return issues;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

export function callsAtATimeOf(config: CarrierConfig): number {
  return typeof config.callsAtATime === 'number' ? config.callsAtATime : DEFAULT_CALLS_AT_A_TIME;
}
