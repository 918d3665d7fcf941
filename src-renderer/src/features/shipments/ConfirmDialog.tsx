import type { ReactNode } from 'react';
import { Dialog } from '../../components/Dialog';
import { useInitialFocus } from './useInitialFocus';

/** "Are you sure?" for what cannot be undone; the safe choice has the focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  danger,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  danger?: boolean;
}) {
  const keep = useInitialFocus<HTMLButtonElement>(open);
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <div>
        {children}
        <div className="form-actions">
          <button type="button" onClick={onClose} ref={keep}>
            Keep it
          </button>
          <button type="button" className={danger ? 'danger' : 'primary'} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
