import type { AvailableCarrier, CarrierField } from '../../src-shared/schemas/carrier';
import type { CarrierAdapter, CarrierConfig, ConfigIssue } from './adapter';
import { carrierAdapters } from './registry';
import { remoteConfigIssues, remoteFields } from './platform/remoteFields';

/**
 * The catalogue of carriers that can be configured (GET /available-carriers), built from the
 * registered adapters so what is offered and what can book are the same list.
 */

/** The adapter's own fields, then the platform's for a carrier reached over the network. */
export function fieldsOf(adapter: CarrierAdapter): CarrierField[] {
  return [...adapter.describe.fields, ...remoteFields(adapter)];
}

function entryOf(adapter: CarrierAdapter): AvailableCarrier {
  const { name, group, description, learnMoreUrl, logoSvg } = adapter.describe;
  const fields = fieldsOf(adapter);
  return {
    name,
    slug: adapter.slug,
    group,
    description,
    // Inline, so the logo shows in an offline warehouse.
    logo: `data:image/svg+xml,${encodeURIComponent(logoSvg)}`,
    learnMoreUrl,
    requiredFields: fields.filter((field) => field.required),
    optionalFields: fields.filter((field) => !field.required),
  };
}

const adaptersBySlug = new Map(carrierAdapters.map((adapter) => [adapter.slug, adapter]));
const entries = carrierAdapters.map(entryOf);
const secretKeysBySlug = new Map(
  carrierAdapters.map((adapter) => [
    adapter.slug,
    fieldsOf(adapter)
      .filter((f) => f.type === 'password')
      .map((f) => f.key),
  ]),
);

export function availableCarriers(): AvailableCarrier[] {
  return [...entries];
}

export function carrierAdapterFor(slug: string): CarrierAdapter | undefined {
  return adaptersBySlug.get(slug);
}

/** Config keys of the carrier that hold secrets: sealed at rest, masked in reads (domain/secrets.ts). */
export function secretKeysOf(slug: string): readonly string[] {
  return secretKeysBySlug.get(slug) ?? [];
}

/**
 * What is wrong with a config for this carrier: unknown keys, missing required fields, values of the
 * wrong type or outside a select's options, then the adapter's own checks. Empty when it is fine.
 */
export function configIssues(adapter: CarrierAdapter, config: CarrierConfig): ConfigIssue[] {
  const fields = fieldsOf(adapter);
  const known = new Set(fields.map((field) => field.key));
  const issues: ConfigIssue[] = Object.keys(config)
    .filter((key) => !known.has(key))
    .map((key) => ({ key, message: `Unknown field for carrier ${adapter.slug}; known fields: ${[...known].join(', ')}` }));
  for (const field of fields) {
    // A select whose choices are read from the carrier (fieldOptions) has none to check against here.
    const remoteChoices = field.type === 'select' && field.options.length === 0 && adapter.fieldOptions !== undefined;
    const message = remoteChoices ? fieldIssue({ ...field, type: 'string' }, config[field.key]) : fieldIssue(field, config[field.key]);
    if (message) issues.push({ key: field.key, message });
  }
  // The adapter's checks assume well-typed values, so they run only on an otherwise valid config.
  if (issues.length > 0) return issues;
  return [...(adapter.remote ? remoteConfigIssues(config) : []), ...(adapter.checkConfig?.(config) ?? [])];
}

function fieldIssue(field: CarrierField, value: unknown): string | null {
  if (value === undefined || value === '') return field.required ? `Required by this carrier (${field.name})` : null;
  switch (field.type) {
    case 'string':
    case 'password':
      return typeof value === 'string' ? null : 'Must be text';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Must be true or false';
    case 'number':
      return typeof value === 'number' ? null : 'Must be a number';
    case 'select': {
      const allowed = field.options.map((option) => option.value);
      return typeof value === 'string' && allowed.includes(value) ? null : `Must be one of ${allowed.join(', ')}`;
    }
  }
}
