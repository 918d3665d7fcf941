import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';
import { ErrorNotice } from './ErrorNotice';
import { FormActions } from './forms';

function ConfirmBody({
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  onCancel: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <div>
      <div className="confirm-message">{message}</div>
      <ErrorNotice error={error} />
      <FormActions>
        {/* Focus starts on the harmless choice, so a stray Enter deletes nothing. */}
        <button type="button" onClick={onCancel} data-autofocus>
          Keep it
        </button>
        <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </FormActions>
    </div>
  );
}

/** "Are you sure?" for deletes and revokes; the parent keeps `open` and closes it after success. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  onCancel: () => void;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onCancel}>
      <ConfirmBody message={props.message} confirmLabel={props.confirmLabel} onConfirm={props.onConfirm} onCancel={props.onCancel} />
    </Dialog>
  );
}
