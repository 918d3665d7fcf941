import { z } from 'zod';
import { errorBodySchema, errorStatus, httpReason } from '../../src-shared/errors';
import { operations } from '../../src-shared/operations';
import { orgParamOf, requestMediaType, scopeOf, takesIdempotencyKey, type AnyOperation } from '../../src-shared/operation';
import { grants, scopeValues, type HttpMethod, type Scope } from '../../src-shared/scopes';
import { DEFAULT_PORT } from '../app/runtime/config';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../app/dispatcher/idempotency';
import { appVersion } from '../app/kernel/version';

/**
 * The OpenAPI door: one OpenAPI 3.1 document produced by walking the operation table. Nothing here
 * knows a particular operation; a new table entry is documented by being there.
 */

export const API_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;
export const SECURITY_SCHEME = 'bearerAuth';
export const ERROR_BODY_SCHEMA = 'ErrorBody';

/** A draft 2020-12 JSON Schema, the dialect OpenAPI 3.1 uses. */
export type JsonSchema = z.core.JSONSchema.BaseSchema;

export type OpenApiReference = { $ref: string };

export type OpenApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
};

export type OpenApiMediaType = { schema: JsonSchema };

export type OpenApiRequestBody = {
  required: boolean;
  description: string;
  content: Record<string, OpenApiMediaType>;
};

export type OpenApiHeader = { description: string; schema: JsonSchema };

export type OpenApiResponse = {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, OpenApiMediaType>;
  /** The stable error codes this status stands for (errors.ts). */
  'x-error-codes'?: string[];
};

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: OpenApiParameter[];
  requestBody?: OpenApiRequestBody;
  responses: Record<string, OpenApiResponse | OpenApiReference>;
  /** `[]` for public operations; OpenAPI 3.1 lets an http scheme list the roles (here: the scope) it needs. */
  security: Record<string, string[]>[];
  'x-required-scope'?: Scope;
};

export type OpenApiMethod = Lowercase<HttpMethod>;
export type OpenApiPathItem = Partial<Record<OpenApiMethod, OpenApiOperation>>;

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }>;
  };
};

let built: OpenApiDocument | undefined;

/** The document for the app's own table, built once (it cannot change while the process runs). */
export function buildOpenApiDocument(): OpenApiDocument {
  built ??= deepFreeze(openApiDocumentFor(operations as readonly AnyOperation[]));
  return built;
}

/** Why each error status happens; the codes themselves come from errors.ts. */
const errorWhen: Record<number, string> = {
  400: 'The path parameters, query or body fail their schema (`details[]` says where), the JSON is malformed, or a field is unknown.',
  401: 'The credential is missing, malformed, unknown, revoked or expired.',
  403: 'The credential lacks the scope (the message names it), belongs to another organization, or a plan limit is reached.',
  404: 'The id is unknown, or belongs to another organization.',
  409: "The resource's state forbids the operation (the message names the state and what is allowed), or a unique value is taken.",
  413: 'The body is larger than 1 MiB.',
  415: 'The body is not sent as the operation’s media type (application/json; text/csv for CSV imports).',
  422: 'The request is well-formed, but the domain cannot carry it out (carrier errors come with `errors[]`).',
  429: 'More than 10 failed authentications a minute from this client; wait for `Retry-After` seconds.',
  500: 'Something failed inside Shipdesk; the body never carries a stack trace.',
  503: 'Shipdesk is shutting down; retry in a moment.',
};

/** Every error status with the codes that map to it, ascending. */
function errorStatuses(): { status: number; codes: string[] }[] {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(errorStatus)) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, codes]) => ({ status, codes }));
}

/** `Payload Too Large` → `PayloadTooLarge`, the name of the shared response component. */
export function errorResponseName(status: number): string {
  return (httpReason[status] ?? `Error${status}`).replace(/[^A-Za-z0-9]+/g, '');
}

/** Which error statuses an operation can answer with, derived from its shape alone. */
export function errorStatusesOf(op: AnyOperation): number[] {
  const credential = op.auth === 'credential';
  const hasBody = takesBody(op);
  // Conflicts and domain refusals come from changing a resource; reads and public calls cannot meet them.
  const changesResource = !op.onlyReads && op.resource !== null;
  const applies: Record<number, boolean> = {
    400: true, // every part is parsed strictly, so an unknown query field is a 400 even without inputs
    401: credential,
    403: credential,
    404: pathParamNames(op.path).length > 0,
    409: changesResource,
    413: hasBody,
    415: hasBody,
    422: changesResource || op.asksCarrier,
    429: credential,
    500: true,
    503: true,
  };
  return errorStatuses()
    .map(({ status }) => status)
    .filter((status) => applies[status] ?? false);
}

const idempotencyKeyParameter: OpenApiParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first answer is kept 24 hours per credential and key and returned again (with ' +
    '`Idempotent-Replayed: true`) instead of running the operation twice. The same key with a different request ' +
    'is 409 IDEMPOTENCY_CONFLICT. Answers of server faults (5xx) are not kept.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
};

const idempotentReplayedHeader: OpenApiHeader = {
  description: 'Present when this is the kept answer of an earlier request with the same `Idempotency-Key`',
  schema: { type: 'string', enum: ['true'] },
};

export function takesBody(op: AnyOperation): boolean {
  return !(op.body instanceof z.ZodUndefined);
}

/** A body the schema accepts as absent (`.optional()`, `.default()`) is not required. */
export function bodyRequired(op: AnyOperation): boolean {
  return takesBody(op) && !op.body.safeParse(undefined).success;
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** `shipments.batchSplit` → `shipments`: operations are grouped by the resource word of their id. */
export function tagOf(op: AnyOperation): string {
  return op.id.split('.')[0] ?? op.id;
}

/** Scopes that satisfy `needed`, e.g. read:carriers ← read:carriers, write:carriers, read:all, write:all. */
export function scopesGranting(needed: Scope): Scope[] {
  return scopeValues.filter((held) => grants([held], needed));
}

export function openApiDocumentFor(ops: readonly AnyOperation[]): OpenApiDocument {
  const schemas = new SchemaComponents();
  schemas.add(ERROR_BODY_SCHEMA, errorBodySchema, 'output');

  const responses: Record<string, OpenApiResponse> = {};
  for (const { status, codes } of errorStatuses()) {
    const response: OpenApiResponse = {
      description: `${httpReason[status] ?? 'Error'}. ${errorWhen[status] ?? ''} Codes: ${codes.join(', ')}.`.replace(/\s+/g, ' '),
      content: { 'application/json': { schema: { $ref: componentRef(ERROR_BODY_SCHEMA) } } },
      'x-error-codes': codes,
    };
    if (status === 429) {
      response.headers = {
        'Retry-After': { description: 'Seconds until the client may try again', schema: { type: 'integer', minimum: 0 } },
      };
    }
    responses[errorResponseName(status)] = response;
  }

  const paths: Record<string, OpenApiPathItem> = {};
  const tags = new Map<string, Set<string>>();
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    const method = op.method.toLowerCase() as OpenApiMethod;
    if (item[method]) throw new Error(`${op.method} ${op.path} is defined twice (${item[method].operationId}, ${op.id})`);
    item[method] = operationObject(op, schemas);
    const tag = tagOf(op);
    const scopes = tags.get(tag) ?? new Set<string>();
    const scope = scopeOf(op);
    if (scope) scopes.add(scope.split(':')[1] as string);
    tags.set(tag, scopes);
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Shipdesk API', version: appVersion, description: infoDescription() },
    servers: [{ url: API_BASE_URL, description: 'This computer (SHIPDESK_PORT / --port change the port)' }],
    tags: [...tags].map(([name, resources]) => ({
      name,
      description:
        resources.size > 0
          ? `Operations \`${name}.*\`; scopes on the resource ${[...resources].map((r) => `\`${r}\``).join(', ')}.`
          : `Operations \`${name}.*\`.`,
    })),
    paths,
    components: {
      schemas: schemas.all(),
      responses,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT or API token (shpd_…)',
          description:
            'Send `Authorization: Bearer <token>` with a JWT from `POST /auth/login` or an API token (`shpd_…`). ' +
            'Each operation names the scope it needs in `x-required-scope`.',
        },
      },
    },
  };
}

function operationObject(op: AnyOperation, schemas: SchemaComponents): OpenApiOperation {
  // A public operation needs nothing, whatever resource it touches.
  const scope = op.auth === 'credential' ? scopeOf(op) : null;
  const name = componentName(op.id);
  const responses: OpenApiOperation['responses'] = {
    [String(op.successStatus)]: successResponse(op, schemas.inline(`${name}.response`, op.response, 'output')),
  };
  for (const status of errorStatusesOf(op)) {
    responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  }
  const required = bodyRequired(op);
  return {
    operationId: op.id,
    summary: op.summary,
    description: operationDescription(op, scope),
    tags: [tagOf(op)],
    parameters: [
      ...parametersOf(op, 'path', schemas.inline(`${name}.params`, op.params, 'input')),
      // Query values arrive as text and are parsed (digits → integers); the parsed form, with its
      // bounds and defaults, is what a caller needs to read.
      ...parametersOf(op, 'query', schemas.inline(`${name}.query`, op.query, 'output')),
      ...(takesIdempotencyKey(op) ? [idempotencyKeyParameter] : []),
    ],
    ...(takesBody(op)
      ? {
          requestBody: {
            required,
            description: requestBodyDescription(op, required),
            content: { [requestMediaType[op.requestKind]]: { schema: schemas.inline(`${name}.body`, op.body, 'input') } },
          },
        }
      : {}),
    responses,
    security: op.auth === 'credential' ? [{ [SECURITY_SCHEME]: scope ? [scope] : [] }] : [],
    ...(scope ? { 'x-required-scope': scope } : {}),
  };
}

function requestBodyDescription(op: AnyOperation, required: boolean): string {
  const what = op.requestKind === 'csv' ? 'A CSV file as text (`text/csv`; `text/plain` is accepted too).' : 'A JSON body.';
  return required ? what : `${what.slice(0, -1)}; it may be left out.`;
}

function operationDescription(op: AnyOperation, scope: Scope | null): string {
  const lines = [op.summary + (op.summary.endsWith('.') ? '' : '.')];
  if (op.auth === 'public') {
    lines.push('Public: needs no credential.');
  } else if (scope) {
    const others = scopesGranting(scope).filter((held) => held !== scope);
    lines.push(
      `Needs a credential (\`Authorization: Bearer <token>\`) with the scope \`${scope}\`` +
        (others.length > 0 ? ` (also granted by ${others.map((s) => `\`${s}\``).join(', ')}).` : '.'),
    );
  } else {
    lines.push('Needs a valid credential (`Authorization: Bearer <token>`); no particular scope.');
  }
  const orgParam = orgParamOf(op);
  if (op.auth === 'credential' && orgParam) {
    lines.push(`The credential must have access to the organization \`{${orgParam}}\`.`);
  }
  return lines.join('\n\n');
}

function parametersOf(op: AnyOperation, where: 'path' | 'query', schema: JsonSchema): OpenApiParameter[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(schema.required ?? []);
  const orgParam = orgParamOf(op);
  return Object.entries(properties).map(([name, property]) => {
    // Described by its parsed form, a defaulted parameter is "required" there; to a caller it is optional.
    const optional = 'default' in property || !required.has(name);
    const parameter: OpenApiParameter = { name, in: where, required: where === 'path' || !optional, schema: property };
    const description =
      typeof property.description === 'string' ? property.description : where === 'path' && name === orgParam ? 'The id of the organization' : undefined;
    if (description) parameter.description = description;
    return parameter;
  });
}

function successResponse(op: AnyOperation, schema: JsonSchema): OpenApiResponse {
  const description = op.successStatus === 201 ? 'Created' : 'OK';
  if (op.responseKind === 'binary') {
    const file: JsonSchema = { type: 'string', format: 'binary' };
    return {
      description: `${description}: the file itself, sent with its own content type (PDF as application/pdf, ZPL as application/zpl, CSV as text/csv, anything else as application/octet-stream).`,
      headers: {
        'Content-Disposition': { description: 'inline; filename="…" when the file has a name', schema: { type: 'string' } },
      },
      content: {
        'application/pdf': { schema: file },
        'application/zpl': { schema: file },
        'text/csv': { schema: file },
        'application/octet-stream': { schema: file },
      },
    };
  }
  return {
    description,
    ...(takesIdempotencyKey(op) ? { headers: { 'Idempotent-Replayed': idempotentReplayedHeader } } : {}),
    content: { 'application/json': { schema } },
  };
}

function infoDescription(): string {
  return [
    `The local HTTP API of Shipdesk, a warehouse shipping app. Base URL: \`${API_BASE_URL}\` ` +
      '(it listens on 127.0.0.1 only, unless SHIPDESK_HOST opens it to the local network). The same operations ' +
      'are available to the desktop app over IPC; every operation id here is that operation’s name.',
    '**Authentication.** Send `Authorization: Bearer <token>` with either a JWT from `POST /auth/login` (12 hours) ' +
      'or an API token (`shpd_…`). A GET needs `read:<resource>`, anything else `write:<resource>`; `write:X` implies ' +
      '`read:X`, and `read:all` / `write:all` cover every resource. Each operation states its scope in ' +
      '`x-required-scope`.',
    '**Errors.** Every error has the body `{code, error, message, details?, errors?}`: a stable `code` ' +
      '(e.g. `SHIPMENT_NOT_FOUND`), the HTTP reason in `error`, a readable `message`, `details[]` ' +
      '(`{path, message}`) for validation failures and `errors[]` (`{code, message}`) for carrier failures.',
    '**Pagination.** Lists take `page` (from 1) and `limit` (1–100, default 20) and answer ' +
      '`{data, total, page, limit, totalPages}`, newest first. Out-of-range values are a 400, never clamped.',
    '**Events.** `GET /orgs/{orgId}/events` is a server-sent event stream (`text/event-stream`) of ' +
      '`shipment.statusChanged` (needs `read:shipments`) and `print.progress` (needs `read:printers`), told after ' +
      'the change is saved. It takes the credential in the `Authorization` header only (never `?access_token=`), ' +
      'resumes after `Last-Event-ID`, and sends `resync` when events were missed. It is a stream, not a call, so it ' +
      'is not listed among the paths; the API guide (docs/api.md, section 15) describes it.',
  ].join('\n\n');
}

// ---------------------------------------------------------------------------------------------------
// zod → JSON Schema

/** Component names allow letters, digits, `.`, `-` and `_`. */
function componentName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9._-]/g, '_');
}

function componentRef(name: string): string {
  return `#/components/schemas/${name}`;
}

/**
 * Converts zod schemas and keeps what they share. zod puts recursive and named (`.meta({ id })`)
 * parts under the schema's own `$defs` and refers to the root as `#`; inside an OpenAPI document
 * both must point into `components.schemas` instead, or they would resolve against the document.
 */
class SchemaComponents {
  private readonly components = new Map<string, { schema: JsonSchema; json: string }>();

  /** A whole schema as a named component. */
  add(name: string, schema: z.ZodType, io: 'input' | 'output'): void {
    const json = this.inline(name, schema, io);
    if (json.$ref !== componentRef(name) && !this.place(new Map([[name, json]]))) {
      fail(`The component name ${name} is taken by a different schema`);
    }
  }

  /** A schema to place inline, with whatever it shares moved into components. */
  inline(name: string, schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _dialect,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      reused: 'inline',
      cycles: 'ref',
    }) as JsonSchema;
    const defs = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    // A named schema keeps its name; only if that name already holds a different schema (its
    // input and output forms differ) do this conversion's names carry the io.
    return (
      this.tryInline(name, root, defs, (id) => id) ??
      this.tryInline(name, root, defs, (id) => `${id}.${io}`) ??
      fail(`Two different JSON Schemas want the component names used by ${name}`)
    );
  }

  all(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.components].map(([name, { schema }]) => [name, schema]));
  }

  private tryInline(name: string, root: JsonSchema, defs: [string, JsonSchema][], namedAs: (id: string) => string): JsonSchema | null {
    const rootName = componentName(name);
    const renamed = new Map<string, string>();
    for (const [defName] of defs) {
      // Generated names (`__schema0`) belong to this schema alone; named ones are shared across the document.
      const generated = /^__schema\d+$/.test(defName);
      renamed.set(defName, componentName(generated ? `${name}.${defName.replace(/^_+/, '')}` : namedAs(defName)));
    }
    let rootReferenced = false;
    const rewriteRef = (ref: string): string => {
      if (ref === '#') {
        rootReferenced = true;
        return componentRef(rootName);
      }
      const target = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
      const renamedTarget = target === undefined ? undefined : renamed.get(target);
      if (renamedTarget) return componentRef(renamedTarget);
      return fail(`Cannot place the JSON Schema reference ${ref} of ${name} in the OpenAPI document`);
    };
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string') out[key] = rewriteRef(inner);
        else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples')
          out[key] = inner; // values, not schemas
        else out[key] = rewrite(inner);
      }
      return out;
    };

    const staged = new Map<string, JsonSchema>();
    for (const [defName, def] of defs) staged.set(renamed.get(defName) as string, rewrite(def) as JsonSchema);
    const rewrittenRoot = rewrite(root) as JsonSchema;
    if (rootReferenced) staged.set(rootName, rewrittenRoot);
    if (!this.place(staged)) return null;
    return rootReferenced ? { $ref: componentRef(rootName) } : rewrittenRoot;
  }

  /** Adds all of `staged`, or nothing when a name already holds a different schema. */
  private place(staged: Map<string, JsonSchema>): boolean {
    const entries = [...staged].map(([name, schema]) => ({ name, schema, json: JSON.stringify(schema) }));
    if (entries.some(({ name, json }) => (this.components.get(name)?.json ?? json) !== json)) return false;
    for (const { name, schema, json } of entries) {
      if (!this.components.has(name)) this.components.set(name, { schema, json });
    }
    return true;
  }
}

function fail(message: string): never {
  throw new Error(message);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
