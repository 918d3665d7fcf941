import { useState } from 'react';
import { EndOfDayDialog } from './EndOfDayDialog';

/** "End of day…" in the Shipments screen's header, with the dialog it opens. */
export function EndOfDayButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        End of day…
      </button>
      <EndOfDayDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
