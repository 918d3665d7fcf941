import { useId, useRef, type KeyboardEvent } from 'react';
import type { ParcelOrderLine } from '../../../../src-shared/schemas/shipment';
import { cellKey, type BatchColumn, type BatchPlan } from './splitPlan';

/**
 * One row per order line, one column per new shipment. Live totals per line (moved, left in the
 * original) and per new shipment; a quantity that cannot be sent is marked where it was typed.
 */
export function BatchSplitGrid({
  lines,
  columns,
  plan,
  onChange,
}: {
  lines: readonly ParcelOrderLine[];
  columns: readonly BatchColumn[];
  plan: BatchPlan;
  onChange: (columns: BatchColumn[]) => void;
}) {
  const table = useRef<HTMLTableElement>(null);
  const gridId = useId();
  const focusCell = (row: number, col: number) => table.current?.querySelector<HTMLInputElement>(`input[data-row="${row}"][data-col="${col}"]`)?.focus();

  const setQuantity = (index: number, lineId: string, value: string) =>
    onChange(columns.map((column, i) => (i === index ? { ...column, quantities: { ...column.quantities, [lineId]: value } } : column)));
  const setReference = (index: number, reference: string) => onChange(columns.map((column, i) => (i === index ? { ...column, reference } : column)));
  const remove = (index: number) => {
    onChange(columns.filter((_, i) => i !== index));
    // After the column is gone from the page; its remove button had focus.
    requestAnimationFrame(() => focusCell(0, Math.max(0, index - 1)));
  };

  // Enter goes down the column, as in a spreadsheet, and never sends anything; the last row leads to the
  // reference. Focus moves at once, so what is typed right after the Enter lands in the next cell.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, row: number, col: number) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    focusCell(Math.min(row + 1, lines.length), col);
  };

  const totalMoved = lines.reduce((sum, line) => sum + (plan.moved[line.id] ?? 0), 0);
  const totalLeft = lines.reduce((sum, line) => sum + Math.max(0, line.quantity - (plan.moved[line.id] ?? 0)), 0);

  return (
    <div className="table-scroll">
      <table className="plain split-grid" ref={table}>
        <caption className="visually-hidden">Units per order line and new shipment</caption>
        <thead>
          <tr>
            <th scope="col">SKU</th>
            <th scope="col">Description</th>
            <th scope="col" className="numeric">
              In parcel
            </th>
            {columns.map((column, index) => (
              <th scope="col" key={column.key} className="split-column">
                New shipment {index + 1}{' '}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove new shipment ${index + 1}`}
                  title="Remove"
                  onClick={() => remove(index)}
                  disabled={columns.length === 1}
                >
                  ×
                </button>
              </th>
            ))}
            <th scope="col" className="numeric">
              Moved
            </th>
            <th scope="col" className="numeric">
              Left in original
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, row) => {
            const moved = plan.moved[line.id] ?? 0;
            const left = line.quantity - moved;
            return (
              <tr key={line.id} className={left < 0 ? 'over' : undefined}>
                <th scope="row">
                  <code>{line.sku}</code>
                </th>
                <td className="wrap">{line.description}</td>
                <td className="numeric">{line.quantity}</td>
                {columns.map((column, col) => {
                  const error = plan.cellErrors[cellKey(column, line)];
                  return (
                    <td key={column.key} className={error ? 'numeric field-invalid' : 'numeric'}>
                      <input
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={line.quantity}
                        step={1}
                        placeholder="0"
                        data-row={row}
                        data-col={col}
                        aria-label={`${line.sku}: units into new shipment ${col + 1}`}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? `${gridId}-${column.key}-${line.id}` : undefined}
                        title={error}
                        value={column.quantities[line.id] ?? ''}
                        onChange={(event) => setQuantity(col, line.id, event.target.value)}
                        onKeyDown={(event) => onKeyDown(event, row, col)}
                      />
                      {error && (
                        <span id={`${gridId}-${column.key}-${line.id}`} className="visually-hidden">
                          {error}
                        </span>
                      )}
                    </td>
                  );
                })}
                <td className="numeric">
                  {moved} of {line.quantity}
                </td>
                <td className="numeric">{left < 0 ? <strong className="field-error">{-left} too many</strong> : left}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Units per new shipment
            </th>
            {columns.map((column, index) => (
              <td key={column.key} className={plan.units[index] ? 'numeric' : 'numeric field-error'}>
                {plan.units[index] ?? 0}
              </td>
            ))}
            <td className="numeric">{totalMoved}</td>
            <td className="numeric">{totalLeft}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              Reference (optional)
            </th>
            {columns.map((column, index) => (
              <td key={column.key}>
                <input
                  className="split-reference"
                  data-row={lines.length}
                  data-col={index}
                  aria-label={`Reference of new shipment ${index + 1}`}
                  placeholder="Automatic"
                  value={column.reference}
                  onChange={(event) => setReference(index, event.target.value)}
                  onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
                />
              </td>
            ))}
            <td colSpan={2} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
