import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type RowData,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parameters must match TanStack's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Class of the column's header and cells, e.g. to give it a width (styles.css). */
    className?: string;
  }
}

export interface DataTableProps<T> {
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack column value types vary per column
  columns: ColumnDef<T, any>[];
  rows: T[];
  getRowId: (row: T) => string;
  total: number;
  page: number;
  limit: number;
  onPageChange: (page: number) => void;
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  columnVisibility?: VisibilityState;
  onColumnVisibilityChange?: (visibility: VisibilityState) => void;
  /** Enter, or a double click, on a row. */
  onOpen?: (row: T) => void;
  /** Row selection for batch actions (Space toggles the focused row). */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (selected: Set<string>) => void;
  /** What a row's tick box says to a screen reader ("order 1001"); its id when not given. */
  rowLabel?: (row: T) => string;
  loading?: boolean;
  /** The page could not be read: the list says nothing about being empty (its error notice speaks). */
  failed?: boolean;
  empty?: ReactNode;
  toolbar?: ReactNode;
  /**
   * Fit the table to its box: columns with a width class (meta.className, styles.css) keep it and the
   * others share what is left, their long text cut with an ellipsis (see Truncated in cells.tsx).
   */
  fit?: boolean;
}

/**
 * The tables of the app: pages, sorting and filtering happen on the server; every row of the page is
 * rendered in the page's own flow (a page is at most a few dozen rows), so the list uses the window's
 * height instead of a fixed window of rows; the keyboard moves between rows (↑ ↓ Home End), opens one
 * (Enter) and selects (Space).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { rows, total, page, limit } = props;
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const selectable = Boolean(props.onSelectedChange);
  const table = useReactTable({
    data: rows,
    columns: props.columns,
    getRowId: props.getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    state: { sorting: props.sorting ?? [], columnVisibility: props.columnVisibility ?? {} },
    onSortingChange: ((updater) => props.onSortingChange?.(typeof updater === 'function' ? updater(props.sorting ?? []) : updater)) as OnChangeFn<SortingState>,
    onColumnVisibilityChange: ((updater) =>
      props.onColumnVisibilityChange?.(typeof updater === 'function' ? updater(props.columnVisibility ?? {}) : updater)) as OnChangeFn<VisibilityState>,
    enableSortingRemoval: false,
  });

  const [active, setActive] = useState(0);
  const viewport = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  useEffect(() => setActive((current) => Math.min(current, Math.max(0, tableRows.length - 1))), [tableRows.length]);

  // Focusing the row scrolls it into view.
  const focusRow = (index: number) => {
    const clamped = Math.max(0, Math.min(tableRows.length - 1, index));
    setActive(clamped);
    viewport.current?.querySelector<HTMLTableRowElement>(`tr[data-index="${clamped}"]`)?.focus();
  };

  const toggle = (id: string) => {
    const next = new Set(props.selected ?? []);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    props.onSelectedChange?.(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number, row: T, id: string) => {
    // Keys typed on a button or field inside the row belong to that control, not to the row.
    if (event.target !== event.currentTarget) return;
    if (event.key === 'ArrowDown') focusRow(index + 1);
    else if (event.key === 'ArrowUp') focusRow(index - 1);
    else if (event.key === 'Home') focusRow(0);
    else if (event.key === 'End') focusRow(tableRows.length - 1);
    else if (event.key === 'Enter') props.onOpen?.(row);
    else if (event.key === ' ' && selectable) toggle(id);
    else return;
    event.preventDefault();
  };

  const allSelected = selectable && rows.length > 0 && rows.every((row) => props.selected?.has(props.getRowId(row)));

  return (
    <div className="data-table">
      {(props.toolbar || props.onColumnVisibilityChange) && (
        <div className="table-toolbar">
          {props.toolbar}
          {props.onColumnVisibilityChange && (
            <details className="column-chooser">
              <summary>Columns</summary>
              <fieldset>
                <legend>Show columns</legend>
                {table
                  .getAllLeafColumns()
                  .filter((column) => column.getCanHide())
                  .map((column) => (
                    <label key={column.id}>
                      <input type="checkbox" checked={column.getIsVisible()} onChange={column.getToggleVisibilityHandler()} />{' '}
                      {typeof column.columnDef.header === 'string' ? column.columnDef.header : column.id}
                    </label>
                  ))}
              </fieldset>
            </details>
          )}
        </div>
      )}
      <div className="table-viewport" ref={viewport}>
        <table className={props.fit ? 'fit' : undefined} aria-label={props.label} aria-rowcount={rows.length + 1} aria-busy={props.loading || undefined}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {selectable && (
                  <th scope="col" className="select-cell">
                    <input
                      type="checkbox"
                      aria-label="Select all on this page"
                      checked={allSelected}
                      onChange={() => props.onSelectedChange?.(allSelected ? new Set() : new Set(rows.map(props.getRowId)))}
                    />
                  </th>
                )}
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={header.column.columnDef.meta?.className}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.column.getCanSort() && props.onSortingChange ? (
                        <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {tableRows.map((row, index) => {
              const checked = props.selected?.has(row.id) ?? false;
              return (
                <tr
                  key={row.id}
                  data-index={index}
                  aria-rowindex={index + 2}
                  aria-selected={selectable ? checked : undefined}
                  tabIndex={index === active ? 0 : -1}
                  className={checked ? 'row-selected' : undefined}
                  onFocus={() => setActive(index)}
                  onKeyDown={(event) => onKeyDown(event, index, row.original, row.id)}
                  onDoubleClick={() => props.onOpen?.(row.original)}
                >
                  {selectable && (
                    <td className="select-cell">
                      <input
                        type="checkbox"
                        tabIndex={-1}
                        aria-label={`Select ${props.rowLabel?.(row.original) ?? row.id}`}
                        checked={checked}
                        onChange={() => toggle(row.id)}
                      />
                    </td>
                  )}
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={cell.column.columnDef.meta?.className}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 && !props.loading && !props.failed && <p className="empty">{props.empty ?? 'Nothing here yet.'}</p>}
      </div>
      <nav className="pager" aria-label={`${props.label} pages`}>
        <button type="button" onClick={() => props.onPageChange(page - 1)} disabled={page <= 1}>
          Previous
        </button>
        <span aria-live="polite">
          Page {page} of {totalPages} · {total} in all
        </span>
        <button type="button" onClick={() => props.onPageChange(page + 1)} disabled={page >= totalPages}>
          Next
        </button>
      </nav>
    </div>
  );
}
