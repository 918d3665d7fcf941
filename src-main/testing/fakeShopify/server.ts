/**
 * A local fake of Shopify's GraphQL Admin API (one endpoint, `POST /admin/api/{version}/graphql.json`),
 * written from Shopify's published reference: it checks the access token and the version in the
 * path, runs the query with the `graphql` package against an SDL subset of the real schema (so a
 * field or argument the real API lacks is refused with Shopify's words for it), computes the
 * calculated query cost and throttles with a leaky bucket, answering THROTTLED with
 * `extensions.cost` the way Shopify does.
 *
 * The schema is composed of modules (orders.ts: Order, LineItem and the orders query); another
 * module adds its own types and resolvers, `extend type Order { … }` included. The orders store
 * (`shop.orders`) is shared by every module, so a mutation can change what a later read sees.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildSchema,
  defaultFieldResolver,
  execute,
  getNamedType,
  GraphQLError,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLTypeResolver,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { shopifyApiVersion } from '../../storefronts/shopify/graphql';
import type { FakeShopifyOrder } from './store';

export const fakeShopify = { shopDomain: 'acme.myshopify.com', accessToken: 'shpat_fake_token_1234' };

/** The Standard plan's numbers from Shopify's rate-limit page: 100 points a second; 1,000 the most one query may cost. */
export const shopifyStandardThrottle = { maximumAvailable: 2000, restoreRate: 100 };
export const shopifyMaxQueryCost = 1000;

export interface FakeShopifyRequest {
  path: string;
  authorized: boolean;
  query: string | null;
  variables: Record<string, unknown>;
}

export interface FakeShopifyContext {
  shop: FakeShopify;
  /** Throws Shopify's ACCESS_DENIED unless the token has the scope. */
  requireScope(scope: string): void;
}

export type FakeShopifyResolver = GraphQLFieldResolver<any, FakeShopifyContext, any>;

/** A piece of the schema: SDL (types, `extend type Query/Mutation/Order …`) and resolvers by type and field. */
export interface FakeShopifyModule {
  name: string;
  sdl: string;
  resolvers?: Record<string, Record<string, FakeShopifyResolver>>;
}

export interface FakeShopify {
  /** The origin to give `app.storefront.origin`. */
  origin: string;
  /** The shop's orders, shared by every module. */
  orders: FakeShopifyOrder[];
  /** The token's access scopes; a query needing another one is answered ACCESS_DENIED. */
  scopes: string[];
  /** The leaky bucket: its size and restore rate (points a second), and what is in it now. */
  throttle: { maximumAvailable: number; restoreRate: number; currentlyAvailable: number };
  /** The fake's clock for the bucket (ms); tests may replace it. */
  now: () => number;
  /** Answer every request with this status instead (401, 402, 423, 500, …). */
  failWith: number | null;
  requests: FakeShopifyRequest[];
  /** While set, requests are held (recorded first) until the promise settles: a run caught mid-sync. */
  gate: Promise<void> | null;
  /** Requests that arrived while a gate was set. */
  held: number;
  /** Every id handed out by `nextId` is unique within the fake. */
  nextId(): number;
  close(): Promise<void>;
}

const baseModule: FakeShopifyModule = {
  name: 'base',
  sdl: /* GraphQL */ `
    scalar DateTime
    scalar Decimal
    scalar Money
    scalar URL
    scalar UnsignedInt64
    scalar JSON

    interface Node {
      id: ID!
    }

    type PageInfo {
      hasNextPage: Boolean!
      hasPreviousPage: Boolean!
      startCursor: String
      endCursor: String
    }

    enum CurrencyCode {
      DKK
      EUR
      SEK
      NOK
      GBP
      USD
    }

    type MoneyV2 {
      amount: Decimal!
      currencyCode: CurrencyCode!
    }

    type MoneyBag {
      shopMoney: MoneyV2!
      presentmentMoney: MoneyV2!
    }

    type Shop implements Node {
      id: ID!
      name: String!
      myshopifyDomain: String!
      currencyCode: CurrencyCode!
    }

    type Query {
      shop: Shop!
      node(id: ID!): Node
    }
  `,
  resolvers: {
    Query: {
      shop: () => ({ id: 'gid://shopify/Shop/1', name: 'Acme', myshopifyDomain: fakeShopify.shopDomain, currencyCode: 'DKK' }),
      node: (_source, args: { id: string }, context: FakeShopifyContext) => {
        if (args.id.startsWith('gid://shopify/Order/')) {
          context.requireScope('read_orders');
          return context.shop.orders.find((order) => order.id === args.id) ?? null;
        }
        return null;
      },
    },
  },
};

/** `gid://shopify/Order/5001` is an Order: abstract types (Node) resolve by the id's type. */
const typeOfGid: GraphQLTypeResolver<unknown, FakeShopifyContext> = (value) => {
  const object = value as { __typename?: string; id?: string };
  if (object.__typename) return object.__typename;
  const match = /^gid:\/\/shopify\/(\w+)\//.exec(object.id ?? '');
  return match?.[1];
};

export function buildFakeShopifySchema(modules: FakeShopifyModule[]): { schema: GraphQLSchema; fieldResolver: FakeShopifyResolver } {
  const all = [baseModule, ...modules];
  const schema = buildSchema(all.map((module) => module.sdl).join('\n'));
  const resolvers: Record<string, Record<string, FakeShopifyResolver>> = {};
  for (const module of all) {
    for (const [type, fields] of Object.entries(module.resolvers ?? {})) resolvers[type] = { ...resolvers[type], ...fields };
  }
  const fieldResolver: FakeShopifyResolver = (source, args, context, info) => {
    const own = resolvers[info.parentType.name]?.[info.fieldName];
    return own ? own(source, args, context, info) : defaultFieldResolver(source, args, context, info);
  };
  return { schema, fieldResolver };
}

// ---- Calculated query cost, by Shopify's published rules: a scalar or enum 0, an object 1, a
// connection 2 plus `first`/`last` times the cost of one node, a mutation 10. The requested cost
// counts every connection as full; the actual cost counts what the answer holds. ----

interface CostInput {
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function argumentValue(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === 'Variable') return variables[node.name.value];
  if (node.kind === 'IntValue') return Number(node.value);
  return undefined;
}

function fieldArgument(
  field: { arguments?: readonly { name: { value: string }; value: ValueNode }[] },
  name: string,
  variables: Record<string, unknown>,
): unknown {
  const argument = field.arguments?.find((arg) => arg.name.value === name);
  return argument ? argumentValue(argument.value, variables) : undefined;
}

const isConnection = (type: GraphQLOutputType) => getNamedType(type).name.endsWith('Connection');

function selectionCost(
  selectionSet: SelectionSetNode | undefined,
  parent: GraphQLObjectType,
  input: CostInput,
  data: Record<string, unknown> | null | undefined,
): number {
  if (!selectionSet) return 0;
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === 'InlineFragment' || selection.kind === 'FragmentSpread') {
      const fragment = selection.kind === 'InlineFragment' ? selection : input.fragments[selection.name.value];
      if (!fragment) continue;
      const onType = fragment.typeCondition ? parent.name === fragment.typeCondition.name.value || !isObjectType(parent) : true;
      if (onType) total += selectionCost(fragment.selectionSet, parent, input, data);
      continue;
    }
    const name = selection.name.value;
    if (name.startsWith('__')) continue;
    const field = parent.getFields()[name];
    if (!field) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) continue;
    const key = selection.alias?.value ?? name;
    const value = data === undefined ? undefined : (data?.[key] as unknown);
    const objectType = isObjectType(named) ? named : null;
    if (isConnection(field.type) && objectType) {
      // A connection: its nodes (or edges' nodes) times their own cost.
      const size = Number(fieldArgument(selection, 'first', input.variables) ?? fieldArgument(selection, 'last', input.variables) ?? 0);
      const nodeField = objectType.getFields().nodes ?? objectType.getFields().edges;
      const nodeType = nodeField ? getNamedType(nodeField.type) : null;
      let perNodes = 0;
      for (const inner of selection.selectionSet?.selections ?? []) {
        if (inner.kind !== 'Field' || !isObjectType(nodeType)) continue;
        const connectionValue = value as Record<string, unknown> | null | undefined;
        if (inner.name.value === 'nodes') {
          const items = data === undefined ? undefined : ((connectionValue?.[inner.alias?.value ?? 'nodes'] as Record<string, unknown>[] | undefined) ?? []);
          perNodes += items
            ? items.reduce((sum, item) => sum + 1 + selectionCost(inner.selectionSet, nodeType, input, item), 0)
            : size * (1 + selectionCost(inner.selectionSet, nodeType, input, undefined));
        } else if (inner.name.value === 'edges') {
          const edges = data === undefined ? undefined : ((connectionValue?.[inner.alias?.value ?? 'edges'] as Record<string, unknown>[] | undefined) ?? []);
          const nodeSelection = inner.selectionSet?.selections.find((s) => s.kind === 'Field' && s.name.value === 'node');
          const nodeObjectType = getNamedType((nodeType as GraphQLObjectType).getFields().node?.type ?? nodeType);
          if (!nodeSelection || nodeSelection.kind !== 'Field' || !isObjectType(nodeObjectType)) continue;
          perNodes += edges
            ? edges.reduce(
                (sum, edge) =>
                  sum +
                  1 +
                  selectionCost(nodeSelection.selectionSet, nodeObjectType, input, edge?.[nodeSelection.alias?.value ?? 'node'] as Record<string, unknown>),
                0,
              )
            : size * (1 + selectionCost(nodeSelection.selectionSet, nodeObjectType, input, undefined));
        }
      }
      total += data !== undefined && value === null ? 0 : 2 + perNodes;
      continue;
    }
    if (isAbstractType(named)) {
      // An interface or union costs its costliest possible selection.
      total += data !== undefined && value === null ? 0 : 1;
      continue;
    }
    if (!objectType) continue;
    const listed = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
    if (data !== undefined) {
      if (value === null || value === undefined) continue;
      const items = listed ? (value as Record<string, unknown>[]) : [value as Record<string, unknown>];
      total += items.reduce((sum, item) => sum + 1 + selectionCost(selection.selectionSet, objectType, input, item), 0);
    } else total += 1 + selectionCost(selection.selectionSet, objectType, input, undefined);
  }
  return total;
}

function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  document: DocumentNode,
  variables: Record<string, unknown>,
  data?: Record<string, unknown> | null,
): number {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === 'FragmentDefinition') fragments[definition.name.value] = definition;
  if (operation.operation === 'mutation') return 10 * operation.selectionSet.selections.length;
  const root = schema.getQueryType();
  return root ? selectionCost(operation.selectionSet, root, { fragments, variables }, data) : 0;
}

// ---- Shopify's words for what graphql-js finds wrong in a query. ----

function shopifyValidationError(error: GraphQLError): Record<string, unknown> {
  const locations = error.locations?.map(({ line, column }) => ({ line, column }));
  let match = /^Cannot query field "(\w+)" on type "(\w+)"/.exec(error.message);
  if (match) {
    return {
      message: `Field '${match[1]}' doesn't exist on type '${match[2]}'`,
      locations,
      extensions: { code: 'undefinedField', typeName: match[2], fieldName: match[1] },
    };
  }
  match = /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"/.exec(error.message);
  if (match) {
    return {
      message: `Field '${match[3]}' doesn't accept argument '${match[1]}'`,
      locations,
      extensions: { code: 'argumentNotAccepted', name: match[3], typeName: 'Field', argumentName: match[1] },
    };
  }
  return { message: error.message, locations, ...(error.extensions && Object.keys(error.extensions).length ? { extensions: error.extensions } : {}) };
}

// ---- The HTTP side. ----

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake on 127.0.0.1 with these schema modules (the orders module, and any a test adds). */
export async function startFakeShopifyServer(modules: FakeShopifyModule[]): Promise<FakeShopify> {
  const { schema, fieldResolver } = buildFakeShopifySchema(modules);
  let idCounter = 900_000;
  let lastLeak = Date.now();
  const shop: FakeShopify = {
    origin: '',
    orders: [],
    scopes: ['read_orders', 'write_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'],
    throttle: { ...shopifyStandardThrottle, currentlyAvailable: shopifyStandardThrottle.maximumAvailable },
    now: () => Date.now(),
    failWith: null,
    requests: [],
    gate: null,
    held: 0,
    nextId: () => ++idCounter,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  /** The bucket refills at the restore rate since the last look. */
  let leakingBucket = shop.throttle;
  const leak = () => {
    const now = shop.now();
    // A bucket a test put in place starts leaking when first looked at.
    if (shop.throttle !== leakingBucket) {
      leakingBucket = shop.throttle;
      lastLeak = now;
    }
    const refilled = shop.throttle.currentlyAvailable + ((now - lastLeak) / 1000) * shop.throttle.restoreRate;
    shop.throttle.currentlyAvailable = Math.min(shop.throttle.maximumAvailable, refilled);
    lastLeak = now;
  };
  const throttleStatus = () => ({
    maximumAvailable: shop.throttle.maximumAvailable,
    currentlyAvailable: Math.floor(shop.throttle.currentlyAvailable),
    restoreRate: shop.throttle.restoreRate,
  });

  const context: FakeShopifyContext = {
    shop,
    requireScope(scope) {
      if (!shop.scopes.includes(scope)) {
        throw new GraphQLError(`Access denied for this field. Required access: \`${scope}\` access scope.`, {
          extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: `\`${scope}\` access scope.` },
        });
      }
    },
  };

  interface Received {
    url: URL;
    authorized: boolean;
    query: string | null;
    variables: Record<string, unknown>;
    operationName: string | null;
  }

  function receive(req: IncomingMessage, raw: string): Received {
    const url = new URL(req.url ?? '/', 'http://fake');
    const authorized = req.headers['x-shopify-access-token'] === fakeShopify.accessToken;
    let request: { query?: unknown; variables?: unknown; operationName?: unknown } = {};
    try {
      request = raw ? (JSON.parse(raw) as typeof request) : {};
    } catch {
      request = {};
    }
    const query = typeof request.query === 'string' ? request.query : null;
    const variables = request.variables && typeof request.variables === 'object' ? (request.variables as Record<string, unknown>) : {};
    const operationName = typeof request.operationName === 'string' ? request.operationName : null;
    return { url, authorized, query, variables, operationName };
  }

  async function handle(req: IncomingMessage, { url, authorized, query, variables, operationName }: Received): Promise<Answer> {
    if (req.method !== 'POST' || url.pathname !== `/admin/api/${shopifyApiVersion}/graphql.json`) return { status: 404, body: { errors: 'Not Found' } };
    if (!authorized) return { status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } };
    if (!query) return { status: 400, body: { errors: { query: 'Required parameter missing or invalid' } } };

    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      const syntax = error as GraphQLError;
      return { status: 200, body: { errors: [{ message: syntax.message, locations: syntax.locations }] } };
    }
    const invalid = validate(schema, document);
    if (invalid.length) return { status: 200, body: { errors: invalid.map(shopifyValidationError) } };
    const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition');
    const operation = operationName ? operations.find((op) => op.name?.value === operationName) : operations[0];
    if (!operation) return { status: 200, body: { errors: [{ message: 'No operation named in the document' }] } };

    const requested = operationCost(schema, operation, document, variables);
    if (requested > shopifyMaxQueryCost) {
      return {
        status: 200,
        body: {
          errors: [
            {
              message: `Query cost is ${requested}, which exceeds the single query max cost limit (${shopifyMaxQueryCost}).`,
              extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: shopifyMaxQueryCost },
            },
          ],
        },
      };
    }
    leak();
    if (requested > shop.throttle.currentlyAvailable) {
      return {
        status: 200,
        body: {
          errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
          extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() } },
        },
      };
    }
    shop.throttle.currentlyAvailable -= requested;
    const result = await execute({
      schema,
      document,
      variableValues: variables,
      operationName: operation.name?.value,
      contextValue: context,
      fieldResolver,
      typeResolver: typeOfGid,
    });
    const actual = Math.min(requested, operationCost(schema, operation, document, variables, (result.data ?? null) as Record<string, unknown> | null));
    // The difference between what was asked and what was answered goes back in the bucket.
    shop.throttle.currentlyAvailable += requested - actual;
    const errors = result.errors?.map((error) => ({
      message: error.message,
      locations: error.locations,
      path: error.path,
      ...(error.extensions && Object.keys(error.extensions).length ? { extensions: error.extensions } : {}),
    }));
    return {
      status: 200,
      body: {
        ...(errors?.length ? { errors } : {}),
        data: result.data ?? null,
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus() } },
      },
    };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(async (raw) => {
      const received = receive(req, raw);
      // Recorded on arrival, before any gate holds it.
      shop.requests.push({
        path: received.url.pathname + received.url.search,
        authorized: received.authorized,
        query: received.query,
        variables: received.variables,
      });
      if (shop.gate) {
        shop.held += 1;
        await shop.gate;
      }
      let answer: Answer;
      if (shop.failWith) answer = { status: shop.failWith, body: { errors: 'failing on purpose' } };
      else {
        try {
          answer = await handle(req, received);
        } catch (error) {
          answer = {
            status: 500,
            body: { errors: [{ message: error instanceof Error ? error.message : 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] },
          };
        }
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return shop;
}
