import type { Page, PageQuery } from '../../src-shared/schemas/common';

/**
 * Builds a page envelope. The rows are fetched only when the page exists, so even the largest
 * page number answers at once (decisions §1 "Lists").
 */
export function paginate<T>(query: PageQuery, total: number, fetchRows: (limit: number, offset: number) => T[]): Page<T> {
  const totalPages = Math.ceil(total / query.limit);
  const data = query.page > totalPages ? [] : fetchRows(query.limit, (query.page - 1) * query.limit);
  return { data, total, page: query.page, limit: query.limit, totalPages };
}
