export function buildOpenApiDocument(): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Shipdesk', version: '0' }, paths: {} };
}
