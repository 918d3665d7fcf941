import type { Onboarding } from '../../../../src-shared/schemas/onboarding';
import { Link } from '../../app/router';
import { stepTitles } from './steps';

/**
 * The open checklist at a glance, above the screen (not over it, never taking focus): shown after
 * setup on the start screen and on every other screen until each step is done or skipped, or the
 * checklist is closed. The steps themselves are on the Getting started screen.
 */
export function ChecklistStrip({ checklist }: { checklist: Onboarding }) {
  const settled = checklist.steps.filter((step) => step.done || step.skipped).length;
  const next = checklist.steps.find((step) => !step.done && !step.skipped);
  return (
    <section className="checklist-strip" aria-label="Getting started">
      <p>
        <strong>Getting started:</strong> {settled} of {checklist.steps.length} done or skipped.
      </p>
      <ol>
        {checklist.steps.map((step) => (
          <li key={step.id} className={step.done ? 'done' : step.skipped ? 'skipped' : undefined}>
            <span aria-hidden="true">{step.done ? '✓ ' : step.skipped ? '– ' : '○ '}</span>
            {stepTitles[step.id]}
            <span className="visually-hidden">{step.done ? ' (done)' : step.skipped ? ' (skipped)' : ' (to do)'}</span>
          </li>
        ))}
      </ol>
      {next && <Link to="/getting-started">Next: {stepTitles[next.id].toLowerCase()}</Link>}
    </section>
  );
}
