/**
 * What the carrier form asks a carrier before and after saving (decisions §13): a connection test,
 * a select field's choices read with the typed credentials (Karrio's connections), and the products
 * kept with the carrier. Failures come back in the carrier's words with a plain sentence, and never
 * with a secret in them.
 */
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { ApiError, validationError, type CarrierErrorItem } from '../../../src-shared/errors';
import { carrierProductSchema, type CarrierFieldOptions, type CarrierProduct, type CarrierTestResult } from '../../../src-shared/schemas/carrier';
import type { AppContext } from '../../app/kernel/context';
import type { CarrierAdapter, CarrierConfig } from '../../carriers/adapter';
import { carrierAdapterFor, availableCarriers, configIssues, fieldsOf, secretKeysOf } from '../../carriers/catalogue';
import { CarrierFailure } from '../../carriers/errors';
import { plainSentence } from '../../carriers/platform/plainWords';
import { carriers } from '../../db/schema';
import { inWriteTransaction } from '../../db/tx';
import { openEditedConfig } from '../secrets';
import { masked, type CarrierSecrets } from '../shipments/carrierLogs';
import { carrierCall, unsavedCarrierCall, type CarrierCall } from './carrierCalls';
import { adapterOfRow, findCarrierRow, productsOfCarrier } from './carrierRows';

type Row = typeof carriers.$inferSelect;

const productList = z.array(carrierProductSchema);

export function adapterOfSlug(slug: string): CarrierAdapter {
  const adapter = carrierAdapterFor(slug);
  if (adapter) return adapter;
  const known = availableCarriers().map((entry) => entry.slug);
  throw new ApiError('NOT_FOUND', `There is no carrier type ${slug}; available: ${known.join(', ')}`);
}

/** Config problems are reported like schema failures, at `body.config.<key>`. */
export function assertValidConfig(adapter: CarrierAdapter, config: CarrierConfig): void {
  const issues = configIssues(adapter, config);
  if (issues.length > 0)
    throw validationError(
      'body',
      issues.map((issue) => ({ path: ['config', issue.key], message: issue.message })),
    );
}

/**
 * An option list is asked for while the form is half filled (the connection is the field being
 * chosen), so only the values given are checked, not what is still missing.
 */
function assertValidTypedValues(adapter: CarrierAdapter, config: CarrierConfig): void {
  const given = (key: string) => config[key] !== undefined && config[key] !== '';
  const issues = configIssues(adapter, config).filter((issue) => given(issue.key));
  if (issues.length > 0)
    throw validationError(
      'body',
      issues.map((issue) => ({ path: ['config', issue.key], message: issue.message })),
    );
}

/** The typed config with its secrets opened: masked ones stand for the saved carrier's, if there is one. */
function openedConfig(app: AppContext, adapter: CarrierAdapter, config: CarrierConfig, saved: Row | null): CarrierConfig {
  return openEditedConfig(app.keys.sealKey, config, secretKeysOf(adapter.slug), saved?.config ?? {});
}

function maskedText(secrets: CarrierSecrets, text: string): string {
  return masked(secrets, text) as string;
}

function joinWords(errors: readonly CarrierErrorItem[]): string {
  return errors.map((item) => item.message.trim().replace(/\.$/, '')).join('; ');
}

/** A failed carrier call as the user reads it: what happened, the carrier's words, what to do. */
function sentenceOf(error: unknown, carrierName: string): { code: 'CARRIER_AUTH_FAILED' | 'CARRIER_ERROR'; message: string; errors: CarrierErrorItem[] } {
  if (error instanceof CarrierFailure) {
    const words = joinWords(error.errors);
    if (error.kind === 'auth') {
      return { code: 'CARRIER_AUTH_FAILED', message: `${carrierName} refused the credentials (${words}). ${authAdvice}`, errors: error.errors };
    }
    if (error.kind === 'refused') {
      const advice = plainSentence(error.errors, carrierName);
      return { code: 'CARRIER_ERROR', message: `${carrierName} answered: ${words}.${advice ? ` ${advice}` : ''}`, errors: error.errors };
    }
    return {
      code: 'CARRIER_ERROR',
      message: `${carrierName} could not be reached (${words}). Check the API base URL and that this computer is online, then try again.`,
      errors: error.errors,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : 'CARRIER_CHECK_FAILED';
  return { code: 'CARRIER_ERROR', message: `${carrierName} could not be checked: ${message}`, errors: [{ code, message }] };
}

const authAdvice = 'Check the API key or password (test and production keys differ, and Test mode chooses which one is used), then test again.';

/** A carrier failure during setup as the answer of the operation, secrets masked. */
function setupFailure(error: unknown, carrierName: string, secrets: CarrierSecrets): ApiError {
  // Our own refusals (a config that does not fit, a stored secret that no longer opens) stay as they are.
  if (error instanceof ApiError && error.code !== 'CARRIER_ERROR' && error.code !== 'CARRIER_AUTH_FAILED') return error;
  const { code, message, errors } = sentenceOf(error, carrierName);
  return new ApiError(code, maskedText(secrets, message), { errors: masked(secrets, errors) as CarrierErrorItem[] });
}

async function runTest(makeCall: () => CarrierCall, carrierName: string): Promise<CarrierTestResult> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  let call: CarrierCall;
  try {
    call = makeCall();
  } catch (error) {
    // A stored secret that no longer opens is a failed test the user can act on, not a server error.
    return { ok: false, message: sentenceOf(error, carrierName).message, durationMs: durationMs() };
  }
  const { adapter, context, secrets } = call;
  if (!adapter.testConnection) {
    const message = adapter.remote
      ? `${carrierName} has no test call; its settings are checked with the first booking.`
      : `${carrierName} books here in Shipdesk without calling a carrier, so there is nothing to check: it is ready.`;
    return { ok: true, message, durationMs: durationMs() };
  }
  try {
    const message = await adapter.testConnection(context);
    return { ok: true, message: maskedText(secrets, message), durationMs: durationMs() };
  } catch (error) {
    return { ok: false, message: maskedText(secrets, sentenceOf(error, carrierName).message), durationMs: durationMs() };
  }
}

/** POST /carriers/{id}/test: the saved config, or `config` as edited (masked secrets are the saved ones). */
export async function testCarrier(app: AppContext, orgId: string, carrierId: string, config: CarrierConfig | undefined): Promise<CarrierTestResult> {
  const row = findCarrierRow(app.db, orgId, carrierId);
  const adapter = adapterOfRow(row);
  if (config === undefined) return runTest(() => carrierCall(app, row), row.name);
  assertValidConfig(adapter, config);
  const opened = openedConfig(app, adapter, config, row);
  return runTest(() => unsavedCarrierCall(app, orgId, adapter, opened), row.name);
}

/** POST /available-carriers/{slug}/test: a config nobody saved yet, so a masked secret stands for nothing. */
export async function testUnsavedCarrier(app: AppContext, orgId: string, slug: string, config: CarrierConfig): Promise<CarrierTestResult> {
  const adapter = adapterOfSlug(slug);
  assertValidConfig(adapter, config);
  const opened = openedConfig(app, adapter, config, null);
  return runTest(() => unsavedCarrierCall(app, orgId, adapter, opened), adapter.describe.name);
}

async function optionsOf(app: AppContext, orgId: string, adapter: CarrierAdapter, config: CarrierConfig, fieldKey: string, carrierName: string) {
  const field = fieldsOf(adapter).find((item) => item.key === fieldKey);
  if (!field || field.type !== 'select') {
    const selects = fieldsOf(adapter)
      .filter((item) => item.type === 'select')
      .map((item) => item.key);
    throw validationError('body', [{ path: ['field'], message: `Not a select field of ${adapter.slug}; its select fields: ${selects.join(', ') || 'none'}` }]);
  }
  // Choices the catalogue lists are the choices; only a select without any is read from the carrier.
  if (!adapter.fieldOptions || field.options.length > 0) return { options: field.options.map(({ name, value }) => ({ name, value })) };
  const call = unsavedCarrierCall(app, orgId, adapter, config);
  try {
    const options = await adapter.fieldOptions(call.context, fieldKey);
    return { options: options.map((option) => ({ name: maskedText(call.secrets, option.name), value: option.value })) };
  } catch (error) {
    throw setupFailure(error, carrierName, call.secrets);
  }
}

/** POST /available-carriers/{slug}/field-options: the choices read with the typed credentials, before saving. */
export async function unsavedFieldOptions(app: AppContext, orgId: string, slug: string, config: CarrierConfig, fieldKey: string): Promise<CarrierFieldOptions> {
  const adapter = adapterOfSlug(slug);
  assertValidTypedValues(adapter, config);
  return optionsOf(app, orgId, adapter, openedConfig(app, adapter, config, null), fieldKey, adapter.describe.name);
}

/** POST /carriers/{id}/field-options: the same while editing a saved carrier, whose secrets need not be typed again. */
export async function carrierFieldOptions(
  app: AppContext,
  orgId: string,
  carrierId: string,
  config: CarrierConfig,
  fieldKey: string,
): Promise<CarrierFieldOptions> {
  const row = findCarrierRow(app.db, orgId, carrierId);
  const adapter = adapterOfRow(row);
  assertValidTypedValues(adapter, config);
  return optionsOf(app, orgId, adapter, openedConfig(app, adapter, config, row), fieldKey, row.name);
}

/**
 * The products read from the carrier for a config about to be saved (decisions §13: Karrio's services
 * for the chosen connection), or null when the adapter's list is its own. Throws 422 CARRIER_ERROR /
 * CARRIER_AUTH_FAILED when the carrier cannot be read, so nothing is saved that could not book.
 */
export async function productsToKeep(
  app: AppContext,
  orgId: string,
  adapter: CarrierAdapter,
  config: CarrierConfig,
  carrierName: string,
  carrierId: string | null = null,
): Promise<CarrierProduct[] | null> {
  if (!adapter.refreshProducts) return null;
  const { context, secrets } = unsavedCarrierCall(app, orgId, adapter, config);
  try {
    return productList.parse(await adapter.refreshProducts({ ...context, carrierId }));
  } catch (error) {
    throw setupFailure(error, carrierName, secrets);
  }
}

/** The config as typed with its secrets opened, for reading products before a create or update is written. */
export function configForProducts(app: AppContext, adapter: CarrierAdapter, config: CarrierConfig, saved: Row | null): CarrierConfig {
  return openedConfig(app, adapter, config, saved);
}

/** POST /carriers/{id}/products/refresh: read again and keep; a carrier that cannot be read keeps what it had. */
export async function refreshCarrierProducts(app: AppContext, orgId: string, carrierId: string): Promise<CarrierProduct[]> {
  const row = findCarrierRow(app.db, orgId, carrierId);
  const adapter = adapterOfRow(row);
  if (!adapter.refreshProducts) return [...productsOfCarrier(app, row)];
  let call: CarrierCall;
  try {
    call = carrierCall(app, row);
  } catch (error) {
    throw setupFailure(error, row.name, { keys: [], values: [] });
  }
  let products: CarrierProduct[];
  try {
    products = productList.parse(await adapter.refreshProducts(call.context));
  } catch (error) {
    throw setupFailure(error, row.name, call.secrets);
  }
  const updated = inWriteTransaction(app.db, (tx) => {
    // Deleted or reconfigured meanwhile: what was read belongs to the old config, so it is not kept.
    const current = findCarrierRow(tx, orgId, carrierId);
    if (current.updatedAt !== row.updatedAt) {
      throw new ApiError('CONFLICT', `Carrier ${carrierId} was changed while its products were read; refresh them again`);
    }
    const updatedAt = app.now().toISOString();
    tx.update(carriers).set({ products, updatedAt }).where(eq(carriers.id, carrierId)).run();
    return { ...current, products, updatedAt };
  });
  return [...productsOfCarrier(app, updated)];
}
