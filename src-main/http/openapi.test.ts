import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
// ajv 8 is what Fastify itself validates with; here it checks that the document's schemas are real JSON Schema.
import Ajv2020 from 'ajv/dist/2020';
import { operations } from '../../src-shared/operations';
import { defineOperation, scopeOf, type AnyOperation } from '../../src-shared/operation';
import { errorBodySchema, errorStatus } from '../../src-shared/errors';
import { appVersion } from '../app/kernel/version';
import { senderAddressBody, startTestServer, type TestServer } from '../testing/harness';
import {
  buildOpenApiDocument,
  openApiDocumentFor,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiMethod,
  type OpenApiOperation,
  type OpenApiResponse,
} from './openapi';
import { docsPage, docsPageHeaders } from './docsPage';

const ops = operations as readonly AnyOperation[];
const doc = buildOpenApiDocument();

function documented(op: AnyOperation, document: OpenApiDocument = doc): OpenApiOperation {
  const operation = document.paths[op.path]?.[op.method.toLowerCase() as OpenApiMethod];
  if (!operation) throw new Error(`${op.id} (${op.method} ${op.path}) is not in the document`);
  return operation;
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** Follows a local `#/…` JSON pointer. */
function resolvePointer(document: unknown, ref: string): unknown {
  expect(ref.startsWith('#/'), `${ref} is a local reference`).toBe(true);
  return ref
    .slice(2)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token], document);
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((inner) => refsIn(inner, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

/** Every schema the document holds, with where it sits. */
function schemasIn(document: OpenApiDocument): { where: string; schema: JsonSchema }[] {
  const out: { where: string; schema: JsonSchema }[] = [];
  for (const [name, schema] of Object.entries(document.components.schemas)) out.push({ where: `components.${name}`, schema });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const at = `${method} ${path}`;
      for (const parameter of operation.parameters) out.push({ where: `${at} ${parameter.name}`, schema: parameter.schema });
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) out.push({ where: `${at} body ${type}`, schema: media.schema });
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries((response as OpenApiResponse).content ?? {})) {
          out.push({ where: `${at} ${status} ${type}`, schema: media.schema });
        }
      }
    }
  }
  return out;
}

/** A draft 2020-12 validator that resolves the document's component references. */
function jsonSchemaValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
  const toComponents = (schema: JsonSchema): JsonSchema =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/')) as JsonSchema;
  ajv.addSchema({ $id: 'components', $defs: toComponents(document.components.schemas) });
  return (schema: JsonSchema) => ajv.compile(toComponents(schema));
}

function successSchema(op: AnyOperation): JsonSchema {
  const response = documented(op).responses[String(op.successStatus)] as OpenApiResponse;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${op.id} has no JSON success schema`);
  return schema;
}

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.1 document with info, a local server and the bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Shipdesk API');
    expect(doc.info.version).toBe(appVersion);
    expect(doc.info.description).toContain('http://127.0.0.1:4848');
    expect(doc.info.description).toContain('Authorization: Bearer');
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4848' })]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has every operation of the table at its path and method, and nothing else', () => {
    const seen: string[] = [];
    for (const op of ops) {
      expect(documented(op).operationId).toBe(op.id);
      expect(documented(op).summary).toBe(op.summary);
      expect(documented(op).tags).toHaveLength(1);
    }
    for (const item of Object.values(doc.paths)) for (const operation of Object.values(item)) seen.push(operation.operationId);
    expect(seen.sort()).toEqual(ops.map((op) => op.id).sort());
    // Every tag an operation uses is declared once.
    const tagNames = doc.tags.map((tag) => tag.name);
    expect(new Set(tagNames).size).toBe(tagNames.length);
    for (const op of ops) expect(tagNames).toContain(documented(op).tags[0]);
  });

  it('documents every path parameter as required, and every query field', () => {
    for (const op of ops) {
      const parameters = documented(op).parameters;
      const inPath = parameters.filter((parameter) => parameter.in === 'path');
      expect(
        inPath.map((parameter) => parameter.name),
        op.id,
      ).toEqual(pathParams(op.path));
      for (const parameter of inPath) expect(parameter.required, `${op.id} ${parameter.name}`).toBe(true);
      const queryFields = op.query instanceof z.ZodObject ? Object.keys(op.query.shape) : [];
      expect(
        parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        op.id,
      ).toEqual(queryFields);
    }
  });

  it('states the scope of every credentialed operation, and none for public ones', () => {
    for (const op of ops) {
      const operation = documented(op);
      const statuses = Object.keys(operation.responses);
      if (op.auth === 'credential') {
        const scope = scopeOf(op);
        expect(operation.security, op.id).toEqual([{ bearerAuth: scope ? [scope] : [] }]);
        expect(operation['x-required-scope'], op.id).toBe(scope ?? undefined);
        if (scope) expect(operation.description, op.id).toContain(scope);
        expect(statuses, op.id).toEqual(expect.arrayContaining(['401', '403', '429']));
      } else {
        expect(operation.security, op.id).toEqual([]);
        expect(operation['x-required-scope'], op.id).toBeUndefined();
        expect(
          statuses.filter((status) => ['401', '403', '429'].includes(status)),
          op.id,
        ).toEqual([]);
      }
    }
    expect(ops.some((op) => op.auth === 'public')).toBe(true);
    expect(ops.some((op) => scopeOf(op)?.startsWith('read:'))).toBe(true);
    expect(ops.some((op) => scopeOf(op)?.startsWith('write:'))).toBe(true);
  });

  it('has a request body exactly for operations that take one: JSON, or text/csv for a CSV import', () => {
    for (const op of ops) {
      const requestBody = documented(op).requestBody;
      if (op.body instanceof z.ZodUndefined) {
        expect(requestBody, op.id).toBeUndefined();
        continue;
      }
      expect(requestBody, op.id).toBeDefined();
      expect(requestBody?.required, op.id).toBe(!op.body.safeParse(undefined).success);
      expect(Object.keys(requestBody?.content ?? {}), op.id).toEqual([op.requestKind === 'csv' ? 'text/csv' : 'application/json']);
      expect(Object.keys(documented(op).responses), op.id).toEqual(expect.arrayContaining(['413']));
    }
    // Both kinds exist in the table, so neither branch above is vacuous.
    expect(ops.some((op) => op.body instanceof z.ZodUndefined)).toBe(true);
    expect(ops.some((op) => !(op.body instanceof z.ZodUndefined) && op.body.safeParse(undefined).success)).toBe(true);
    expect(documented(ops.find((op) => op.id === 'auth.login') as AnyOperation).requestBody?.content['application/json']?.schema).toMatchObject({
      required: ['email', 'password'],
      additionalProperties: false,
    });
    expect(documented(ops.find((op) => op.id === 'orders.import') as AnyOperation).requestBody).toMatchObject({
      required: true,
      content: { 'text/csv': { schema: { type: 'string', minLength: 1 } } },
    });
  });

  it('documents the pagination bounds and the list envelope', () => {
    const lists = ops.filter((op) => op.query instanceof z.ZodObject && 'page' in op.query.shape && 'limit' in op.query.shape);
    expect(lists.length).toBeGreaterThan(0);
    for (const op of lists) {
      const parameter = (name: string) => documented(op).parameters.find((p) => p.in === 'query' && p.name === name);
      expect(parameter('page'), op.id).toMatchObject({
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
      });
      expect(parameter('limit'), op.id).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
      expect(successSchema(op).required, op.id).toEqual(['data', 'total', 'page', 'limit', 'totalPages']);
    }
  });

  it('answers every error with the one shared ErrorBody', () => {
    expect(doc.components.schemas.ErrorBody).toEqual(expect.objectContaining({ type: 'object', required: ['code', 'error', 'message'] }));
    expect(Object.keys((doc.components.schemas.ErrorBody as { properties: object }).properties)).toEqual(Object.keys(errorBodySchema.shape));
    const knownStatuses = new Set(Object.values(errorStatus).map(String));
    for (const op of ops) {
      const responses = documented(op).responses;
      expect(Object.keys(responses), op.id).toEqual(expect.arrayContaining([String(op.successStatus), '400', '500']));
      if (pathParams(op.path).length > 0) expect(Object.keys(responses), op.id).toContain('404');
      for (const [status, response] of Object.entries(responses)) {
        if (status === String(op.successStatus)) continue;
        expect(knownStatuses, `${op.id} ${status}`).toContain(status);
        const ref = (response as { $ref?: string }).$ref;
        expect(ref, `${op.id} ${status}`).toMatch(/^#\/components\/responses\//);
        const shared = resolvePointer(doc, ref as string) as OpenApiResponse;
        expect(shared.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        // The codes listed for a status are exactly the codes errors.ts maps to it.
        const codes = Object.entries(errorStatus)
          .filter(([, s]) => String(s) === status)
          .map(([code]) => code);
        expect(shared['x-error-codes']).toEqual(codes);
      }
    }
  });

  it('resolves every $ref and holds only valid draft 2020-12 schemas', () => {
    for (const ref of refsIn(doc)) expect(resolvePointer(doc, ref), ref).toBeDefined();
    const compile = jsonSchemaValidator(doc);
    for (const { where, schema } of schemasIn(doc)) {
      expect(() => compile(schema), where).not.toThrow();
      expect(JSON.stringify(schema), where).not.toContain('"$schema"');
      expect(JSON.stringify(schema), where).not.toContain('#/$defs/');
    }
  });

  it('is built once, frozen, and the same every time', () => {
    expect(buildOpenApiDocument()).toBe(doc);
    expect(Object.isFrozen(doc)).toBe(true);
    expect(JSON.stringify(openApiDocumentFor(ops))).toBe(JSON.stringify(doc));
  });
});

describe('the published API against the spec', () => {
  /** interface.md §4, every row, with the success status of decisions §2 (201 creates, 200 the rest). */
  const specEndpoints: [OpenApiMethod, string, number][] = [
    ['post', '/orgs/{orgId}/shipments', 201],
    ['get', '/orgs/{orgId}/shipments', 200],
    ['get', '/orgs/{orgId}/shipments/{shipmentId}', 200],
    ['patch', '/orgs/{orgId}/shipments/{shipmentId}', 200],
    ['post', '/orgs/{orgId}/shipments/{shipmentId}/create-return', 200],
    ['post', '/orgs/{orgId}/orders/{orderId}/shipments', 201],
    ['post', '/orgs/{orgId}/shipments/{shipmentId}/parcels/{parcelId}/split', 201],
    ['post', '/orgs/{orgId}/shipments/{shipmentId}/parcels/{parcelId}/batch-split', 201],
    ['get', '/orgs/{orgId}/orders', 200],
    ['get', '/orgs/{orgId}/orders/{orderId}', 200],
    ['get', '/orgs/{orgId}/available-carriers', 200],
    ['get', '/orgs/{orgId}/carriers', 200],
    ['get', '/orgs/{orgId}/carriers/{carrierId}', 200],
    ['get', '/orgs/{orgId}/sender-addresses/{addressId}', 200],
    ['post', '/orgs/{orgId}/shipping-rules', 201],
    ['get', '/orgs/{orgId}/shipping-rules', 200],
    ['get', '/orgs/{orgId}/shipping-rules/{ruleId}', 200],
    ['post', '/orgs/{orgId}/api-tokens', 201],
    ['get', '/orgs/{orgId}/api-tokens/{tokenId}', 200],
    ['get', '/orgs/{orgId}/webhooks', 200],
    ['get', '/orgs/{orgId}/billing/usage', 200],
    ['put', '/orgs/{id}', 200],
  ];
  /** The extra operations decisions.md names, with their success status. */
  const decidedEndpoints: [OpenApiMethod, string, number][] = [
    ['get', '/health', 200],
    ['post', '/auth/login', 200],
    ['get', '/orgs/{id}', 200],
    ['post', '/orgs/{orgId}/shipments/{shipmentId}/send', 200],
    ['post', '/orgs/{orgId}/shipments/batch-send', 200],
    ['post', '/orgs/{orgId}/shipments/{shipmentId}/cancel', 200],
    ['delete', '/orgs/{orgId}/shipments/{shipmentId}', 200],
    ['get', '/orgs/{orgId}/shipments/{shipmentId}/documents/{documentId}/content', 200],
    ['post', '/orgs/{orgId}/shipments/{shipmentId}/print', 200],
    ['post', '/orgs/{orgId}/orders', 201],
    ['patch', '/orgs/{orgId}/orders/{orderId}', 200],
    ['delete', '/orgs/{orgId}/orders/{orderId}', 200],
    ['post', '/orgs/{orgId}/orders/import', 200],
    ['get', '/orgs/{orgId}/order-channels', 200],
    ['post', '/orgs/{orgId}/order-channels', 201],
    ['get', '/orgs/{orgId}/order-channels/{channelId}', 200],
    ['patch', '/orgs/{orgId}/order-channels/{channelId}', 200],
    ['delete', '/orgs/{orgId}/order-channels/{channelId}', 200],
    ['post', '/orgs/{orgId}/order-channels/{channelId}/sync', 200],
    ['patch', '/orgs/{orgId}/shipping-rules/{ruleId}', 200],
    ['delete', '/orgs/{orgId}/shipping-rules/{ruleId}', 200],
    ['post', '/orgs/{orgId}/shipping-rules/match', 200],
    ['get', '/orgs/{orgId}/sender-addresses', 200],
    ['post', '/orgs/{orgId}/sender-addresses', 201],
    ['delete', '/orgs/{orgId}/sender-addresses/{addressId}', 200],
    ['post', '/orgs/{orgId}/carriers', 201],
    ['delete', '/orgs/{orgId}/carriers/{carrierId}', 200],
    ['get', '/orgs/{orgId}/carriers/{carrierId}/products', 200],
    ['post', '/orgs/{orgId}/webhooks', 201],
    ['get', '/orgs/{orgId}/webhooks/{webhookId}', 200],
    ['patch', '/orgs/{orgId}/webhooks/{webhookId}', 200],
    ['delete', '/orgs/{orgId}/webhooks/{webhookId}', 200],
    ['get', '/orgs/{orgId}/webhooks/{webhookId}/deliveries', 200],
    ['post', '/orgs/{orgId}/webhooks/{webhookId}/test', 200],
    ['get', '/orgs/{orgId}/printers', 200],
    ['post', '/orgs/{orgId}/printers', 201],
    ['get', '/orgs/{orgId}/printers/{printerId}', 200],
    ['patch', '/orgs/{orgId}/printers/{printerId}', 200],
    ['delete', '/orgs/{orgId}/printers/{printerId}', 200],
    ['get', '/orgs/{orgId}/printers/discover', 200],
    ['get', '/orgs/{orgId}/print-jobs', 200],
    ['post', '/orgs/{orgId}/print-jobs/{jobId}/retry', 200],
    ['post', '/api-tokens/verify', 200],
  ];

  it('has every endpoint of interface.md §4 and decisions.md at its method and path, with its success status', () => {
    for (const [method, path, status] of [...specEndpoints, ...decidedEndpoints]) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
      const successes = Object.keys(operation?.responses ?? {}).filter((code) => Number(code) < 300);
      expect(successes, `${method.toUpperCase()} ${path}`).toEqual([String(status)]);
      // Every /orgs path needs a credential (interface.md §5); so does everything but the public few.
      if (path.startsWith('/orgs/')) expect(operation?.security, path).toEqual([{ bearerAuth: [expect.stringMatching(/^(read|write):/)] }]);
    }
  });

  it('documents the spec’s request fields and list filters', () => {
    const bodyFields = (method: OpenApiMethod, path: string) => {
      const schema = doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema as JsonSchema;
      const resolved = schema.$ref ? (resolvePointer(doc, schema.$ref) as JsonSchema) : schema;
      return Object.keys((resolved.properties ?? {}) as object);
    };
    const queryFields = (path: string) => (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(bodyFields('post', '/orgs/{orgId}/shipments')).toEqual(
      expect.arrayContaining([
        'reference',
        'senderAddressId',
        'parties',
        'type',
        'carrierSettings',
        'parcels',
        'servicePointId',
        'pickupDetails',
        'termOfTrade',
        'status',
        'orderId',
      ]),
    );
    expect(bodyFields('patch', '/orgs/{orgId}/shipments/{shipmentId}')).toEqual(
      expect.arrayContaining([
        'reference',
        'senderAddressId',
        'servicePointId',
        'parties',
        'type',
        'parcels',
        'pickupDetails',
        'termOfTrade',
        'status',
        'orderId',
      ]),
    );
    expect(bodyFields('post', '/orgs/{orgId}/orders/{orderId}/shipments')).toEqual(
      expect.arrayContaining([
        'senderAddressId',
        'carrierId',
        'productId',
        'services',
        'additionalParameters',
        'reference',
        'parties',
        'servicePointId',
        'pickupDetails',
      ]),
    );
    expect(bodyFields('post', '/orgs/{orgId}/shipments/{shipmentId}/parcels/{parcelId}/split')).toEqual(
      expect.arrayContaining(['orderLineIds', 'carrierId', 'productId', 'services', 'additionalParameters', 'reference']),
    );
    expect(bodyFields('post', '/orgs/{orgId}/shipments/{shipmentId}/parcels/{parcelId}/batch-split')).toEqual(
      expect.arrayContaining(['shipments', 'carrierId', 'productId', 'services', 'additionalParameters']),
    );
    expect(bodyFields('post', '/orgs/{orgId}/api-tokens')).toEqual(expect.arrayContaining(['name', 'scopes', 'expiresInDays']));
    expect(bodyFields('put', '/orgs/{id}')).toEqual(
      expect.arrayContaining([
        'name',
        'slug',
        'description',
        'currency',
        'vatNumber',
        'overageEnabled',
        'billingEmail',
        'companyName',
        'addressLine1',
        'addressLine2',
        'city',
        'postalCode',
        'country',
      ]),
    );
    for (const path of ['/orgs/{orgId}/shipments', '/orgs/{orgId}/carriers', '/orgs/{orgId}/shipping-rules', '/orgs/{orgId}/webhooks']) {
      expect(queryFields(path), path).toEqual(expect.arrayContaining(['page', 'limit']));
    }
    expect(queryFields('/orgs/{orgId}/orders')).toEqual(expect.arrayContaining(['page', 'limit', 'status', 'orderChannelId']));
  });
});

describe('OpenAPI generator on operations it has never seen', () => {
  // Recursive, named and binary schemas do not exist in the table yet; the generator must not need to know.
  const Category = z.object({
    name: z.string().min(1),
    get children(): z.ZodArray<typeof Category> {
      return z.array(Category);
    },
  });
  const Address = z.object({ city: z.string(), zip: z.string().default('0000') }).meta({ id: 'TestAddress' });
  const synthetic = [
    defineOperation({
      id: 'trees.create',
      method: 'POST',
      path: '/orgs/{orgId}/trees',
      summary: 'Plant a tree',
      resource: 'shipments',
      body: z.strictObject({ root: Category, address: Address, copies: z.array(Address).max(3) }),
      response: z.strictObject({ root: Category, address: Address }),
    }),
    defineOperation({
      id: 'trees.walk',
      method: 'POST',
      path: '/trees/{treeId}/walk',
      summary: 'Walk a tree',
      resource: null,
      body: z.strictObject({ steps: z.number().int().min(1) }).optional(),
      response: Category,
      successStatus: 200,
    }),
    defineOperation({
      id: 'trees.label',
      method: 'PUT',
      path: '/orgs/{orgId}/trees/{treeId}/label',
      summary: 'Label a tree by its kind',
      resource: 'shipments',
      body: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('oak'), acorns: z.number().int().min(0) }),
        z.strictObject({ kind: z.literal('ash'), keys: z.array(z.string()).max(10) }),
      ]),
      response: z.strictObject({ message: z.string() }),
    }),
    defineOperation({
      id: 'trees.photo',
      method: 'GET',
      path: '/orgs/{orgId}/trees/{treeId}/photo',
      summary: 'The photo of a tree',
      resource: 'shipments',
      response: z.unknown(),
      responseKind: 'binary',
    }),
    defineOperation({
      id: 'trees.search',
      method: 'GET',
      path: '/trees',
      summary: 'Search trees',
      resource: 'shipments',
      auth: 'public',
      query: z.strictObject({ kind: z.enum(['oak', 'ash']), tall: z.coerce.boolean().optional() }),
      response: z.array(z.strictObject({ name: z.string(), planted: z.date() })),
    }),
  ] as readonly AnyOperation[];
  const synthDoc = openApiDocumentFor(synthetic);
  const byId = (id: string) => documented(synthetic.find((op) => op.id === id) as AnyOperation, synthDoc);

  it('moves recursive and named parts into components and keeps every reference valid', () => {
    for (const ref of refsIn(synthDoc)) expect(resolvePointer(synthDoc, ref), ref).toBeDefined();
    const compile = jsonSchemaValidator(synthDoc);
    for (const { where, schema } of schemasIn(synthDoc)) expect(() => compile(schema), where).not.toThrow();

    // A root that refers to itself becomes a component of its own.
    const walked = (byId('trees.walk').responses['200'] as OpenApiResponse).content?.['application/json']?.schema;
    expect(walked).toEqual({ $ref: '#/components/schemas/trees.walk.response' });
    const validateWalk = compile(walked as JsonSchema);
    expect(validateWalk({ name: 'oak', children: [{ name: 'branch', children: [] }] })).toBe(true);
    expect(validateWalk({ name: 'oak', children: [{ name: '', children: [] }] })).toBe(false);

    // A named schema keeps its name; its input form (zip has a default) gets its own when it differs.
    expect(synthDoc.components.schemas.TestAddress).toMatchObject({ required: ['city', 'zip'] });
    expect(synthDoc.components.schemas['TestAddress.input']).toMatchObject({ required: ['city'] });
    const body = byId('trees.create').requestBody?.content['application/json']?.schema as { properties: Record<string, unknown> };
    expect(body.properties.address).toEqual({ $ref: '#/components/schemas/TestAddress.input' });
  });

  it('describes binary responses, optional bodies, scope-less and public operations', () => {
    const photo = byId('trees.photo').responses['200'] as OpenApiResponse;
    expect(photo.content).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/zpl': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string', format: 'binary' } },
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    });
    expect(byId('trees.walk').requestBody?.required).toBe(false);
    expect(byId('trees.walk').security).toEqual([{ bearerAuth: [] }]);
    expect(byId('trees.walk')['x-required-scope']).toBeUndefined();
    expect(byId('trees.search').security).toEqual([]);
    expect(byId('trees.search')['x-required-scope']).toBeUndefined();
    expect(byId('trees.search').parameters).toEqual([
      { name: 'kind', in: 'query', required: true, schema: { type: 'string', enum: ['oak', 'ash'] } },
      { name: 'tall', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);
  });

  it('renders documentation for them without looping on recursion', () => {
    const page = docsPage(synthDoc);
    for (const op of synthetic) expect(page).toContain(op.id);
    expect(page).toContain('root.children');
    expect(page).toContain('copies[].city');
    // Each shape of a union body gets its own table, named by its constant field.
    expect(page).toContain('kind = &#34;oak&#34;');
    expect(page).toContain('kind = &#34;ash&#34;');
    expect(page).toContain('acorns');
  });

  it('refuses two operations on the same method and path', () => {
    const twice = [synthetic[0], { ...synthetic[0], id: 'trees.plant' }] as AnyOperation[];
    expect(() => openApiDocumentFor(twice)).toThrow(/defined twice/);
  });
});

describe('docs page', () => {
  it('escapes every text it takes from the document', () => {
    const hostile = defineOperation({
      id: 'evil.<b>op</b>',
      method: 'POST',
      path: '/evil/{id}',
      summary: '<script>alert(1)</script> & "quotes"',
      resource: 'shipments',
      body: z.strictObject({
        '"><img src=x onerror=alert(1)>': z.enum(['</td><script>x()</script>']).describe('<iframe src="//evil">'),
      }),
      response: z.strictObject({ ok: z.literal('<style>') }),
    }) as AnyOperation;
    const page = docsPage(openApiDocumentFor([hostile]));
    // Past the page's own style sheet, no markup may come from the document.
    expect(page.slice(page.indexOf('</style>'))).not.toMatch(/<script|<img|<iframe|<b>|<style/);
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;');
    expect(page).toContain('&#34;&#62;&#60;img src=x onerror=alert(1)&#62;');
  });

  it('loads nothing from anywhere: no scripts, no external links or styles', () => {
    const page = docsPage(doc);
    expect(page).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|\bsrc=/i);
    for (const [, href] of page.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(#|\/openapi\.json$)/);
    expect(page.match(/<style>/g)).toHaveLength(1);
    expect(docsPageHeaders['content-security-policy']).toMatch(/default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'/);
  });
});

describe('served by a real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves GET /openapi.json without a credential', async () => {
    const response = await server.request('GET', '/openapi.json', { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('serves GET /docs without a credential, covering every operation', async () => {
    const response = await server.request('GET', '/docs', { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(docsPageHeaders['content-security-policy']);
    const page = (response.body as Buffer).toString('utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    for (const op of ops) {
      expect(page, op.id).toContain(`id="${op.id}"`);
      expect(page, op.id).toContain(`<code>${op.path}</code>`);
    }
  });

  it('documents Idempotency-Key exactly where the server honours it, with the bounds it enforces', async () => {
    const { orgId } = server.org;
    const keyParameter = (op: AnyOperation) => documented(op).parameters.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
    const documentedOps = ops.filter((op) => keyParameter(op));
    expect(documentedOps.length).toBeGreaterThan(0);
    for (const op of ops) {
      const success = documented(op).responses[String(op.successStatus)] as OpenApiResponse;
      expect(Boolean(success.headers?.['Idempotent-Replayed']), op.id).toBe(Boolean(keyParameter(op)));
    }

    const byId = (id: string) => ops.find((op) => op.id === id) as AnyOperation;
    const twice = async (method: string, path: string, key: string, body: unknown, token?: string | null) => {
      const options = { body, headers: { 'idempotency-key': key }, ...(token !== undefined ? { token } : {}) };
      const first = await server.request(method, path, options);
      const second = await server.request(method, path, options);
      return { first, second, replayed: second.headers.get('idempotent-replayed') === 'true' };
    };

    // Documented: a repeat is the kept answer.
    expect(keyParameter(byId('senderAddresses.create'))).toBeDefined();
    const create = await twice('POST', `/orgs/${orgId}/sender-addresses`, 'doc-key-1', senderAddressBody());
    expect(create.first.status).toBe(201);
    expect(create.replayed).toBe(true);
    expect(create.second.body).toEqual(create.first.body);

    // Not documented (a public POST, a PATCH): the header changes nothing.
    expect(keyParameter(byId('auth.login'))).toBeUndefined();
    const login = await twice('POST', '/auth/login', 'doc-key-2', { email: server.org.email, password: server.org.password }, null);
    expect(login.first.status).toBe(200);
    expect(login.replayed).toBe(false);
    expect(keyParameter(byId('senderAddresses.update'))).toBeUndefined();
    const update = await twice('PUT', `/orgs/${orgId}/sender-addresses/${create.first.body.id}`, 'doc-key-3', senderAddressBody({ city: 'Vejle' }));
    expect(update.first.status).toBe(200);
    expect(update.replayed).toBe(false);

    // The documented bounds are the enforced ones.
    const { minLength, maxLength } = keyParameter(byId('senderAddresses.create'))?.schema as { minLength: number; maxLength: number };
    const withKey = (key: string) =>
      server.request('POST', `/orgs/${orgId}/sender-addresses`, { body: senderAddressBody({ name: key.slice(0, 20) }), headers: { 'idempotency-key': key } });
    expect((await withKey('k'.repeat(maxLength))).status).toBe(201);
    expect((await withKey('k'.repeat(maxLength + 1))).body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(minLength).toBe(1);
  });

  it('documents response schemas that the real answers match', async () => {
    const compile = jsonSchemaValidator(doc);
    const op = (id: string) => ops.find((candidate) => candidate.id === id) as AnyOperation;
    const { orgId } = server.org;
    const created = await server.request('POST', `/orgs/${orgId}/sender-addresses`, { body: senderAddressBody() });
    const answers: [string, unknown][] = [
      ['system.health', (await server.request('GET', '/health', { token: null })).body],
      ['orgs.get', (await server.request('GET', `/orgs/${orgId}`)).body],
      ['senderAddresses.create', created.body],
      ['senderAddresses.list', (await server.request('GET', `/orgs/${orgId}/sender-addresses?page=1&limit=5`)).body],
      ['apiTokens.list', (await server.request('GET', `/orgs/${orgId}/api-tokens`)).body],
    ];
    for (const [id, body] of answers) {
      const validate = compile(successSchema(op(id)));
      expect(validate(body), `${id}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const failure = await server.request('GET', `/orgs/${orgId}/sender-addresses?limit=500`);
    expect(failure.status).toBe(400);
    expect(compile({ $ref: '#/components/schemas/ErrorBody' })(failure.body)).toBe(true);
  });
});
