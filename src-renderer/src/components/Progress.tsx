import { useId } from 'react';

/** Progress of long work (batch send, printing), announced to screen readers. */
export function Progress({ label, done, total }: { label: string; done: number; total: number }) {
  const id = useId();
  return (
    <div className="progress">
      <label htmlFor={id}>
        {label}: {done} of {total}
      </label>
      <progress id={id} max={total} value={done} aria-valuetext={`${done} of ${total}`} />
    </div>
  );
}
