import { useEffect, useRef, type ReactNode } from 'react';
import { Progress } from '../../components/Progress';
import { Link } from '../../app/router';

/** One shipment's line in the results: which shipment, what happened, why not. */
export interface ResultRow {
  shipmentId: string;
  reference: string;
  ok: boolean;
  /** "Sent", "Printed", "Failed". */
  result: string;
  reason?: ReactNode;
}

/**
 * The progress and per-shipment results of work on many shipments (batch send and every bulk action:
 * one component, not one copy per action). When the work ends, the summary takes the focus and is
 * scrolled into view: the Close button below a long list used to take it, and the dialog scrolled
 * the summary out of sight (issue 20). The failed ones come first then: they need someone.
 */
export function BulkResults({
  label,
  running,
  done,
  total,
  runningWord,
  summary,
  rows,
}: {
  /** The table's name for screen readers: "Send results". */
  label: string;
  running: boolean;
  done: number;
  total: number;
  /** "Sending", "Printing". */
  runningWord: string;
  /** "38 printed, 2 failed." */
  summary: string;
  rows: readonly ResultRow[];
}) {
  const finished = !running && total > 0;
  const summaryLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!finished) return;
    const frame = requestAnimationFrame(() => {
      summaryLine.current?.focus({ preventScroll: true });
      summaryLine.current?.scrollIntoView({ block: 'start' });
    });
    return () => cancelAnimationFrame(frame);
  }, [finished]);
  if (total === 0) return null;
  const shown = finished ? [...rows.filter((row) => !row.ok), ...rows.filter((row) => row.ok)] : rows;
  return (
    <>
      <Progress label={running ? runningWord : 'Done'} done={done} total={total} />
      {finished && (
        <p role="status" className="bulk-summary" tabIndex={-1} ref={summaryLine}>
          <strong>{summary}</strong>
        </p>
      )}
      {rows.length > 0 && (
        <table className="plain" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Shipment</th>
              <th scope="col">Result</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.shipmentId}>
                <td>
                  <Link to={`/shipments/${encodeURIComponent(row.shipmentId)}`}>{row.reference}</Link>
                </td>
                <td>
                  <span className={`status status-${row.ok ? 'done' : 'failed'}`}>{row.result}</span>
                </td>
                <td className="wrap">{row.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
