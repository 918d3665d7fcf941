export function docsPage(_doc: Record<string, unknown>): string {
  return '<!doctype html><title>Shipdesk API</title>';
}
