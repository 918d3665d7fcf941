/**
 * A whole row, as read and merged with a PATCH, to write back with `UPDATE … SET … WHERE id = ?`:
 * every column but the primary key. Setting `id`, even to the value it already has, makes SQLite
 * check each table whose foreign key points at this one, and where that column has no index of its
 * own it reads the whole table: a carrier, sender address or shipping rule saved with its `id` read
 * every shipment (92 ms per million, per reference), an organization every outbox event, a printer
 * every print job.
 */
export function updateColumns<T extends { id: unknown }>(row: T): Omit<T, 'id'> {
  const { id: _id, ...columns } = row;
  return columns;
}
