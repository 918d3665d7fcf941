import type { ReactNode } from 'react';
import { formatDateTime, formatDateTimeCompact } from '../lib/format';

/**
 * Text that may be long (names, references) in a table cell: cut with an ellipsis at the column's
 * width, the whole of it in the tooltip. `children` replaces the plain text (a link, say).
 */
export function Truncated({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <span className="truncate" title={text}>
      {children ?? text}
    </span>
  );
}

/** A date and time, short enough for a table column; the full date in the tooltip. */
export function DateCell({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className="date-cell">
      {formatDateTimeCompact(iso)}
    </time>
  );
}
