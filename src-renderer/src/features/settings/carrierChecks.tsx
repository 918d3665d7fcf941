import { useState } from 'react';
import type { CarrierTestResult } from '../../../../src-shared/schemas/carrier';
import { ErrorNotice } from '../../components/ErrorNotice';
import { client } from '../../lib/api';

/**
 * What the carrier form asks the carrier before saving (decisions §13): "Test connection" with the
 * settings as typed, and the choices of a select that only the carrier knows (Karrio's connections).
 * A saved carrier is asked through its own operations, so its secrets need not be typed again.
 */
export interface CarrierTarget {
  orgId: string;
  slug: string;
  /** The saved carrier being edited; null for a new one. */
  carrierId: string | null;
  carrierName: string;
}

type Config = Record<string, string | number | boolean>;

export function testConnection(target: CarrierTarget, config: Config): Promise<CarrierTestResult> {
  if (target.carrierId) return client.call('carriers.test', { params: { orgId: target.orgId, carrierId: target.carrierId }, body: { config } });
  return client.call('availableCarriers.test', { params: { orgId: target.orgId, slug: target.slug }, body: { config } });
}

export function fieldOptions(target: CarrierTarget, config: Config, field: string): Promise<{ options: { name: string; value: string }[] }> {
  if (target.carrierId) return client.call('carriers.fieldOptions', { params: { orgId: target.orgId, carrierId: target.carrierId }, body: { config, field } });
  return client.call('availableCarriers.fieldOptions', { params: { orgId: target.orgId, slug: target.slug }, body: { config, field } });
}

/** "Test connection" and its result in words; `configOf` throws when a typed value cannot be read. */
export function ConnectionTest({ target, configOf }: { target: CarrierTarget; configOf: () => Config }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CarrierTestResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    setError(null);
    try {
      setResult(await testConnection(target, configOf()));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="connection-test">
      <button type="button" onClick={() => void run()} disabled={busy}>
        {busy ? 'Testing…' : 'Test connection'}
      </button>
      <div role="status" aria-live="polite">
        {result && (
          <p className={result.ok ? 'carrier-test-result ok' : 'carrier-test-result failed'}>
            <strong>{result.ok ? 'Connection works.' : 'Connection failed.'}</strong> {result.message} <small className="muted">({result.durationMs} ms)</small>
          </p>
        )}
      </div>
      <ErrorNotice error={error} title="The connection could not be tested" />
    </div>
  );
}

export interface RemoteOptions {
  options: { name: string; value: string }[];
  error: unknown;
  loading: boolean;
}

/** The choices of selects read from the carrier, by field key. */
export function useRemoteOptions(target: CarrierTarget, configOf: () => Config) {
  const [byField, setByField] = useState<Record<string, RemoteOptions>>({});
  const load = async (key: string) => {
    setByField((current) => ({ ...current, [key]: { options: current[key]?.options ?? [], error: null, loading: true } }));
    try {
      const answer = await fieldOptions(target, configOf(), key);
      setByField((current) => ({ ...current, [key]: { options: answer.options, error: null, loading: false } }));
    } catch (error) {
      setByField((current) => ({ ...current, [key]: { options: current[key]?.options ?? [], error, loading: false } }));
    }
  };
  return { byField, load };
}
