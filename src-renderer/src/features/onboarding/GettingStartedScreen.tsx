import { useState, type ReactNode } from 'react';
import type { Onboarding, OnboardingStepId } from '../../../../src-shared/schemas/onboarding';
import { Link, navigate } from '../../app/router';
import { creationPlaces } from '../../components/EmptyChoice';
import { ErrorNotice } from '../../components/ErrorNotice';
import { client } from '../../lib/api';
import { useCanWrite } from '../../lib/permissions';
import { useOrgId } from '../../lib/session';
import { useOperation } from '../../lib/useOperation';
import { PageHeader } from '../settings/shared';
import { DemoModeButton } from './DemoModeButton';
import { stepTitles } from './steps';

/** What each step asks, in the words of someone setting up a warehouse, and which steps make sense to skip. */
const stepText: Record<OnboardingStepId, { why: string; skippable: boolean }> = {
  sender_address: { why: 'Where parcels leave from; it is printed on every label.', skippable: false },
  carrier: {
    why: 'Who takes the parcels. Your own van needs no account; a real carrier is ready once its connection test passes.',
    skippable: false,
  },
  order_channel: {
    why: 'Where orders come from: a shop, a CSV file, or orders typed here. A warehouse without a shop can skip it.',
    skippable: true,
  },
  shipping_rule: { why: 'Picks the carrier and product for an order by country, weight or order total.', skippable: true },
  printer: { why: 'Labels print there on their own. Without one, labels are saved as files to print yourself.', skippable: true },
  first_shipment: { why: 'Send one: it gets its label and tracking number.', skippable: true },
};

/**
 * The first-day checklist (issue 20). The server says what is done (from the data) and what was
 * skipped; each open step is done here in one click where only one choice exists, else one click
 * away on the screen where it is made, its New form open.
 */
export function GettingStartedScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('orgs');
  const onboarding = useOperation('onboarding.get', { params: { orgId } });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      onboarding.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const update = (body: { skip?: OnboardingStepId; unskip?: OnboardingStepId; closed?: boolean }) =>
    client.call('onboarding.update', { params: { orgId }, body });

  if (onboarding.error) return <ErrorNotice error={onboarding.error} title="The checklist could not be loaded" />;
  const data = onboarding.data;
  if (!data) return <p className="loading">Loading the checklist…</p>;
  const settled = data.steps.filter((step) => step.done || step.skipped).length;

  return (
    <div className="settings-screen getting-started">
      <PageHeader title="Getting started">
        {canWrite && !data.complete && (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(async () => {
                await update({ closed: true });
                navigate('/');
              })
            }
          >
            Close the checklist
          </button>
        )}
      </PageHeader>
      <p className="lead">
        {data.complete
          ? 'Every step is done or skipped: Shipdesk is ready for the day. This list stays here under Settings → Organization.'
          : `${settled} of ${data.steps.length} steps done or skipped. Each step is done here or one click away; skip what your warehouse does not need.`}
      </p>
      <ErrorNotice error={error} />
      <ol className="checklist" aria-label="First-day checklist">
        {data.steps.map((step) => (
          <li
            key={step.id}
            className={step.done ? 'step done' : step.skipped ? 'step skipped' : 'step'}
            aria-label={`${stepTitles[step.id]}: ${stateWord(step)}`}
          >
            <div className="step-head">
              <span className="step-mark" aria-hidden="true">
                {step.done ? '✓' : step.skipped ? '–' : '○'}
              </span>
              <h2>{stepTitles[step.id]}</h2>
              <span className="step-state">{stateWord(step)}</span>
            </div>
            {!step.done && (
              <>
                <p>{stepText[step.id].why}</p>
                {!step.skipped && canWrite && <StepActions step={step.id} data={data} busy={busy} act={act} />}
                {canWrite && stepText[step.id].skippable && (
                  <button
                    type="button"
                    className="link-button"
                    disabled={busy}
                    onClick={() => void act(() => update(step.skipped ? { unskip: step.id } : { skip: step.id }))}
                  >
                    {step.skipped ? `Undo skip of ${stepTitles[step.id].toLowerCase()}` : `Skip ${stepTitles[step.id].toLowerCase()}`}
                  </button>
                )}
              </>
            )}
          </li>
        ))}
      </ol>
      <section className="demo-offer" aria-labelledby="demo-offer-title">
        <h2 id="demo-offer-title">Just looking?</h2>
        <p>Try Shipdesk with a sample warehouse (orders, rules, the local carrier) kept apart from your own data. One click brings you back.</p>
        <DemoModeButton />
      </section>
    </div>
  );
}

function stateWord(step: Onboarding['steps'][number]): string {
  return step.done ? 'Done' : step.skipped ? 'Skipped' : 'To do';
}

/** The one click of each step: made here where nothing needs choosing, else a link to its New form. */
function StepActions({
  step,
  data,
  busy,
  act,
}: {
  step: OnboardingStepId;
  data: Onboarding;
  busy: boolean;
  act: (work: () => Promise<unknown>) => Promise<void>;
}) {
  const orgId = useOrgId();
  const addresses = useOperation('senderAddresses.list', step === 'carrier' ? { params: { orgId }, query: { limit: 2 } } : null);
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string } | null>(null);
  const actions = (children: ReactNode) => <div className="step-actions">{children}</div>;
  const linkTo = (place: keyof typeof creationPlaces, label?: string) => <Link to={creationPlaces[place].to}>{label ?? creationPlaces[place].action}</Link>;

  switch (step) {
    case 'sender_address':
      return actions(linkTo('senderAddress'));
    case 'carrier': {
      const toTest = data.carriersToTest[0];
      const onlyAddress = addresses.data?.data.length === 1 ? addresses.data.data[0] : undefined;
      return (
        <>
          {actions(
            <>
              {toTest && (
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() =>
                    void act(async () => {
                      const result = await client.call('carriers.test', { params: { orgId, carrierId: toTest.id } });
                      setTestResult(result);
                    })
                  }
                >
                  Test connection to {toTest.name}
                </button>
              )}
              {!toTest && onlyAddress && (
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() =>
                    void act(() =>
                      client.call('carriers.create', {
                        params: { orgId },
                        body: { name: 'Own delivery', carrierSlug: 'local', config: {}, senderAddressId: onlyAddress.id },
                      }),
                    )
                  }
                >
                  Add own delivery (the local carrier, from {onlyAddress.name})
                </button>
              )}
              {linkTo('carrier', toTest || onlyAddress ? 'Add another carrier' : undefined)}
            </>,
          )}
          {testResult && (
            <p role="status" className={testResult.ok ? 'carrier-test-result ok' : 'carrier-test-result failed'}>
              {testResult.ok ? 'Connected: ' : 'Not connected: '}
              {testResult.message}
            </p>
          )}
        </>
      );
    }
    case 'order_channel':
      return actions(
        <>
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void act(() => client.call('orderChannels.create', { params: { orgId }, body: { name: 'Orders typed here', type: 'manual' } }))}
          >
            Add a channel for orders typed here
          </button>
          {linkTo('orderChannel', 'Connect a shop or CSV import')}
        </>,
      );
    case 'shipping_rule':
      return actions(linkTo('shippingRule'));
    case 'printer':
      return actions(linkTo('printer'));
    case 'first_shipment':
      return actions(
        <>
          <Link to="/shipments/new">New shipment</Link>
          <Link to="/orders">Ship an order</Link>
        </>,
      );
  }
}
