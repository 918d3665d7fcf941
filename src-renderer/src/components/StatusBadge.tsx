import { humanize } from '../lib/format';

export function StatusBadge({ status }: { status: string }) {
  return <span className={`status status-${status}`}>{humanize(status)}</span>;
}
