import { createHash } from 'node:crypto';
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiReference, OpenApiResponse } from './openapi';

/**
 * The API reference as one self-contained HTML page, rendered from the OpenAPI document. The app
 * runs offline, so the page loads nothing: no scripts, fonts or images, and its CSP says so.
 */

// ---------------------------------------------------------------------------------------------------
// Escaping: every interpolated value is text unless it is already Html.

class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function render(part: Part): string {
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
}

function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return new Html(strings.reduce((out, text, i) => out + text + (i < parts.length ? render(parts[i]) : ''), ''));
}

// ---------------------------------------------------------------------------------------------------
// Styles and headers

const css = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6475;--bg:#fff;--panel:#f5f7fa;--line:#dde2ea;--accent:#1f5fbf;
--get:#1c7c54;--post:#1f5fbf;--put:#8a5a00;--patch:#7a3fb0;--delete:#b3261e}
@media (prefers-color-scheme:dark){:root{--fg:#e3e7ee;--muted:#9aa4b5;--bg:#14171c;--panel:#1c2028;--line:#2e3440;--accent:#7fb0ff;
--get:#4cc38a;--post:#7fb0ff;--put:#e0b050;--patch:#c49bf0;--delete:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
.layout{display:grid;grid-template-columns:300px 1fr;max-width:1400px;margin:0 auto}
nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:24px 16px;border-right:1px solid var(--line);font-size:13px;overflow-wrap:anywhere}
nav h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:16px 0 4px}
nav ul{list-style:none;margin:0;padding:0}nav li{margin:2px 0}
main{padding:24px 40px;min-width:0}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
h1{margin:0 0 4px;font-size:28px}h2.tag{margin:48px 0 8px;padding-bottom:6px;border-bottom:2px solid var(--line)}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
.muted{color:var(--muted)}
.intro{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:4px 20px;margin:16px 0}
.op{border:1px solid var(--line);border-radius:8px;margin:20px 0;padding:0 20px 12px;scroll-margin-top:12px}
.op h3{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:14px 0 4px;font-size:17px}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;padding:1px 8px;color:#fff;font-size:12px;font-weight:700}
.m-get{background:var(--get)}.m-post{background:var(--post)}.m-put{background:var(--put)}.m-patch{background:var(--patch)}.m-delete{background:var(--delete)}
.opid{margin-left:auto;font-weight:400;color:var(--muted);font-size:13px}
.scope{display:inline-block;font-size:13px;font-weight:400;background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:0 6px}
h4{margin:14px 0 4px;font-size:14px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:4px 0}
th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:5px 8px}
th{color:var(--muted);font-weight:600}
td.name{white-space:nowrap}
.req{color:var(--delete);font-weight:600}
ul.constraints{margin:0;padding-left:16px}
ul.responses{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:13px}
ul.responses li:not(.error){flex-basis:100%}
ul.responses li.error a{color:var(--muted)}
p.variant{margin:10px 0 2px;font-weight:600;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
details summary{cursor:pointer;color:var(--accent);font-size:13px;margin-top:8px}
@media (max-width:900px){.layout{display:block}nav{position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}main{padding:16px}}
`;

/** The page allows its own inline style sheet and nothing else. */
export const docsPageHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    `default-src 'none'; style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'; ` +
    "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

// ---------------------------------------------------------------------------------------------------
// Page

const rendered = new WeakMap<OpenApiDocument, string>();

export function docsPage(doc: OpenApiDocument): string {
  let page = rendered.get(doc);
  if (page === undefined) {
    page = renderPage(doc);
    rendered.set(doc, page);
  }
  return page;
}

type Entry = { path: string; method: string; operation: OpenApiOperation };

function renderPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, Entry[]>(doc.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags[0] ?? 'other';
      const list = byTag.get(tag) ?? [];
      list.push({ path, method, operation });
      byTag.set(tag, list);
    }
  }
  const tagDescription = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
  const groups = [...byTag].filter(([, entries]) => entries.length > 0);
  const server = doc.servers[0]?.url ?? '';

  return (
    '<!doctype html>\n' +
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${doc.info.title} ${doc.info.version}</title>
        <style>
          ${new Html(css)}
        </style>
      </head>
      <body>
        <div class="layout">
          <nav aria-label="Operations">
            <strong>${doc.info.title}</strong> <span class="muted">${doc.info.version}</span>
            <ul>
              <li><a href="#introduction">Introduction</a></li>
              <li><a href="/openapi.json">openapi.json</a></li>
            </ul>
            ${groups.map(
              ([tag, entries]) =>
                html`<h2>${tag}</h2>
                  <ul>
                    ${entries.map(
                      ({ method, path, operation }) =>
                        html`<li>
                          <a href="#${anchor(operation.operationId)}"><span class="mono">${method.toUpperCase()}</span> ${path}</a>
                        </li>`,
                    )}
                  </ul>`,
            )}
          </nav>
          <main>
            <h1>${doc.info.title}</h1>
            <p class="muted">
              Version ${doc.info.version} · Base URL <code>${server}</code> · Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI
              ${doc.openapi})
            </p>
            ${intro(doc, server)}
            ${groups.map(
              ([tag, entries]) =>
                html`<section aria-labelledby="tag-${anchor(tag)}">
                  <h2 class="tag" id="tag-${anchor(tag)}">${tag}</h2>
                  <p class="muted">${inlineMarkdown(tagDescription.get(tag) ?? '')}</p>
                  ${entries.map((entry) => operationSection(doc, entry))}
                </section>`,
            )}
          </main>
        </div>
      </body>
    </html> `.value
  );
}

function intro(doc: OpenApiDocument, server: string): Html {
  const errorResponses = Object.entries(doc.components.responses)
    .map(([name, response]) => ({ name, response, status: statusOfComponent(doc, name) }))
    .sort((a, b) => a.status.localeCompare(b.status));
  return html`<section id="introduction" class="intro">
    <h2>Authentication</h2>
    <p>
      Send every request to <code>${server}</code> with the header <code>Authorization: Bearer &lt;token&gt;</code>, where the token is a JWT from
      <code>POST /auth/login</code> (valid 12 hours) or an API token (<code>shpd_…</code>). Operations marked <em>public</em> need no credential. A GET needs
      <code>read:&lt;resource&gt;</code>, anything else <code>write:&lt;resource&gt;</code>; <code>write:X</code> implies <code>read:X</code>, and
      <code>read:all</code> / <code>write:all</code> cover every resource. Each operation below names its scope.
    </p>
    <h2 id="errors">Errors</h2>
    <p>Every error has the same JSON body:</p>
    <pre><code>{ "code": "SHIPMENT_NOT_FOUND", "error": "Not Found", "message": "Shipment shp_… does not exist in this organization" }</code></pre>
    <p>
      <code>code</code> is stable (assert on it), <code>error</code> is the HTTP reason, <code>message</code> is for people. Validation failures add
      <code>details: [{ path, message }]</code>; carrier failures add <code>errors: [{ code, message }]</code>.
    </p>
    <table>
      <thead>
        <tr>
          <th>Status</th>
          <th>Meaning</th>
          <th>Codes</th>
        </tr>
      </thead>
      <tbody>
        ${errorResponses.map(
          ({ response, status }) =>
            html`<tr>
              <td class="mono">${status}</td>
              <td>${inlineMarkdown(stripCodes(response.description))}</td>
              <td class="mono">${(response['x-error-codes'] ?? []).join(', ')}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <h2>Pagination</h2>
    <p>
      Lists take <code>page</code> (from 1) and <code>limit</code> (1–100, default 20) as query parameters and answer
      <code>{ data, total, page, limit, totalPages }</code>, newest first. Values out of range are a 400, never clamped; a page past the end has
      <code>data: []</code> with the true <code>total</code>.
    </p>
  </section>`;
}

/** The error status a shared response stands for, found from the operations that use it. */
function statusOfComponent(doc: OpenApiDocument, name: string): string {
  const ref = `#/components/responses/${name}`;
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (isReference(response) && response.$ref === ref) return status;
      }
    }
  }
  return name;
}

/** `Bad Request. The path…` → `Bad Request` */
function reasonOf(description: string): string {
  return description.split('. ')[0] ?? description;
}

function stripCodes(description: string): string {
  return description.replace(/\s*Codes:.*$/, '');
}

function operationSection(doc: OpenApiDocument, { path, method, operation }: Entry): Html {
  const scope = operation['x-required-scope'];
  const isPublic = operation.security.length === 0;
  const body = operation.requestBody;
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
  const successSchema = success && !isReference(success[1]) ? success[1].content?.['application/json']?.schema : undefined;
  // The first paragraph is the summary; the rest say who may call it.
  const notes = operation.description.split('\n\n').slice(1);
  return html`<article class="op" id="${anchor(operation.operationId)}">
    <h3>
      <span class="method m-${method}">${method.toUpperCase()}</span><code>${path}</code>${
        isPublic ? html`<span class="scope">public</span>` : html`<span class="scope mono" title="required scope">${scope ?? 'any credential'}</span>`
      }<span class="opid">${operation.operationId}</span>
    </h3>
    <p>${operation.summary}</p>
    ${notes.length > 0 ? html`<p class="muted">${notes.map((note, i) => html`${i > 0 ? ' ' : ''}${inlineMarkdown(note)}`)}</p>` : ''}
    ${operation.parameters.length > 0 ? parametersTable(operation.parameters) : ''}
    ${
      body
        ? html`<h4>Request body <span class="muted">(${Object.keys(body.content).join(', ')}${body.required ? '' : ', optional'})</span></h4>
            ${fieldsTable(doc, body.content['application/json']?.schema ?? {})}`
        : ''
    }
    <h4>Responses</h4>
    <ul class="responses">
      ${Object.entries(operation.responses).map(([status, response]) => {
        const resolved = resolveResponse(doc, response);
        const codes = resolved['x-error-codes'];
        if (!codes) {
          const types = Object.keys(resolved.content ?? {});
          return html`<li>
            <code>${status}</code> ${inlineMarkdown(resolved.description)}${types.length > 0 ? html` <span class="muted">(${types.join(', ')})</span>` : ''}
          </li>`;
        }
        // Errors are explained once in the introduction; here the reason, with the codes on hover.
        return html`<li class="error">
          <a href="#errors" title="${codes.join(', ')}"><code>${status}</code> ${reasonOf(resolved.description)}</a>
        </li>`;
      })}
    </ul>
    ${
      successSchema
        ? html`<details>
            <summary>Response fields</summary>
            ${fieldsTable(doc, successSchema)}
          </details>`
        : ''
    }
  </article>`;
}

function parametersTable(parameters: OpenApiParameter[]): Html {
  return html`<h4>Parameters</h4>
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>In</th>
          <th>Type</th>
          <th>Required</th>
          <th>Constraints</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        ${parameters.map(
          (parameter) =>
            html`<tr>
              <td class="name mono">${parameter.name}</td>
              <td>${parameter.in}</td>
              <td class="mono">${typeLabel(parameter.schema)}</td>
              <td>${parameter.required ? html`<span class="req">required</span>` : 'optional'}</td>
              <td>${constraintList(parameter.schema)}</td>
              <td>${parameter.description ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

// ---------------------------------------------------------------------------------------------------
// JSON Schema → rows of fields

type Field = { name: string; schema: JsonSchema; required: boolean };

const MAX_DEPTH = 6;

function fieldsTable(doc: OpenApiDocument, schema: JsonSchema): Html {
  const variants = objectVariants(doc, resolveSchema(doc, schema));
  if (variants.length > 1) {
    return html`<p class="muted">One of ${variants.length} shapes:</p>
      ${variants.map(
        (variant, i) =>
          html`<p class="variant">${variantLabel(variant, i)}</p>
            ${fieldsTable(doc, variant)}`,
      )}`;
  }
  const fields = fieldsOf(doc, schema, '', 0, new Set());
  if (fields.length === 0) {
    const root = resolveSchema(doc, schema);
    const properties = root.properties as Record<string, unknown> | undefined;
    if (properties && Object.keys(properties).length === 0) return html`<p class="muted">An empty object.</p>`;
    return html`<p><span class="mono">${typeLabel(schema)}</span> ${constraintList(schema)}</p>`;
  }
  return html`<table>
    <thead>
      <tr>
        <th>Field</th>
        <th>Type</th>
        <th>Required</th>
        <th>Constraints</th>
        <th>Description</th>
      </tr>
    </thead>
    <tbody>
      ${fields.map(
        (field) =>
          html`<tr>
            <td class="name mono">${field.name}</td>
            <td class="mono">${typeLabel(field.schema)}</td>
            <td>${field.required ? html`<span class="req">required</span>` : 'optional'}</td>
            <td>${constraintList(field.schema)}</td>
            <td>${descriptionOf(doc, field.schema)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The object shapes of a union (a discriminated union of bodies), each shown as its own table. */
function objectVariants(doc: OpenApiDocument, schema: JsonSchema): JsonSchema[] {
  const branches = nonNullBranches(schema).map((branch) => resolveSchema(doc, branch));
  return branches.length > 1 && branches.every((branch) => branch.properties) ? branches : [];
}

/** `type = "shopify"` when the shape has a constant field to tell it by. */
function variantLabel(variant: JsonSchema, index: number): string {
  const properties = (variant.properties ?? {}) as Record<string, JsonSchema>;
  const discriminator = Object.entries(properties).find(([, property]) => 'const' in property);
  return discriminator ? `${discriminator[0]} = ${JSON.stringify(discriminator[1].const)}` : `Shape ${index + 1}`;
}

/** Flattens nested objects to `parent.child` and arrays of objects to `parent[].child`. */
function fieldsOf(doc: OpenApiDocument, schema: JsonSchema, prefix: string, depth: number, visiting: Set<string>): Field[] {
  if (depth > MAX_DEPTH) return [];
  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
  if (ref) {
    if (visiting.has(ref)) return []; // recursive: the type column names the schema
    return fieldsOf(doc, resolveSchema(doc, schema), prefix, depth, new Set([...visiting, ref]));
  }
  const objectLike = objectBranch(schema);
  if (objectLike) {
    const required = new Set(objectLike.required ?? []);
    const properties = (objectLike.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(properties).flatMap(([key, property]) => {
      const name = prefix + key;
      return [{ name, schema: property, required: required.has(key) }, ...fieldsOf(doc, property, `${name}.`, depth + 1, visiting)];
    });
  }
  const items = arrayItems(schema);
  if (items) return fieldsOf(doc, items, `${prefix.replace(/\.$/, '')}[].`, depth + 1, visiting);
  return [];
}

/** The object with properties in `schema`, also through `anyOf: [object, null]`; a union of objects shows all their fields. */
function objectBranch(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties && typeof schema.properties === 'object') return schema;
  const branches = nonNullBranches(schema);
  if (branches.length === 1 && branches[0] !== schema) return objectBranch(branches[0] as JsonSchema);
  if (branches.length < 2) return undefined;
  const objects = branches.map(objectBranch);
  if (objects.some((object) => object === undefined)) return undefined;
  // A field is required only when every shape requires it.
  const properties: Record<string, JsonSchema> = {};
  for (const object of objects as JsonSchema[]) {
    for (const [key, property] of Object.entries(object.properties as Record<string, JsonSchema>)) properties[key] ??= property;
  }
  const required = Object.keys(properties).filter((key) => (objects as JsonSchema[]).every((object) => object.required?.includes(key)));
  return { type: 'object', properties, required };
}

function arrayItems(schema: JsonSchema): JsonSchema | undefined {
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    return schema.items as JsonSchema;
  }
  const branches = nonNullBranches(schema);
  return branches.length === 1 && branches[0] !== schema ? arrayItems(branches[0] as JsonSchema) : undefined;
}

function nonNullBranches(schema: JsonSchema): JsonSchema[] {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!branches) return [schema];
  return branches.filter((branch) => branch.type !== 'null');
}

function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
  const name = ref?.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
  return (name !== undefined ? doc.components.schemas[name] : undefined) ?? schema;
}

function resolveResponse(doc: OpenApiDocument, response: OpenApiResponse | OpenApiReference): OpenApiResponse {
  if (!isReference(response)) return response;
  const name = response.$ref.slice('#/components/responses/'.length);
  return doc.components.responses[name] ?? { description: response.$ref };
}

function isReference(value: OpenApiResponse | OpenApiReference): value is OpenApiReference {
  return typeof (value as OpenApiReference).$ref === 'string';
}

function descriptionOf(doc: OpenApiDocument, schema: JsonSchema): string {
  if (typeof schema.description === 'string') return schema.description;
  for (const branch of nonNullBranches(schema)) {
    if (typeof branch.description === 'string') return branch.description;
  }
  const resolved = resolveSchema(doc, schema);
  return resolved !== schema && typeof resolved.description === 'string' ? resolved.description : '';
}

/** A short type: `string | null`, `array of integer`, `map of string`, `"Bearer"`. */
export function typeLabel(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'object';
  if ('const' in schema) return JSON.stringify(schema.const);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return [...new Set(branches.map(typeLabel))].join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeLabel({ ...schema, type })).join(' | ');
  switch (schema.type) {
    case 'array': {
      const items = arrayItems(schema);
      return items ? `array of ${wrap(typeLabel(items))}` : 'array';
    }
    case 'object': {
      const values = schema.additionalProperties;
      if (!schema.properties && values && typeof values === 'object') return `map of ${wrap(typeLabel(values as JsonSchema))}`;
      return 'object';
    }
    case undefined:
      return 'any';
    default:
      return typeof schema.format === 'string' ? `${schema.type} (${schema.format})` : String(schema.type);
  }
}

function wrap(label: string): string {
  return label.includes(' | ') ? `(${label})` : label;
}

/** Bounds of a JSON integer that every integer field has; not worth a line each. */
const SAFE = Number.MAX_SAFE_INTEGER;

export function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  const sources = [schema, ...nonNullBranches(schema).filter((branch) => branch !== schema)];
  for (const s of sources) {
    if (Array.isArray(s.enum)) out.push(`one of ${s.enum.map((value) => JSON.stringify(value)).join(', ')}`);
    const range = (min: unknown, max: unknown, unit: string) => {
      const lo = typeof min === 'number' ? min : undefined;
      const hi = typeof max === 'number' ? max : undefined;
      if (lo !== undefined && hi !== undefined) out.push(lo === hi ? `exactly ${lo}${unit}` : `${lo}–${hi}${unit}`);
      else if (lo !== undefined) out.push(`at least ${lo}${unit}`);
      else if (hi !== undefined) out.push(`at most ${hi}${unit}`);
    };
    range(s.minLength, s.maxLength, ' characters');
    range(s.minItems, s.maxItems, ' items');
    range(s.minProperties, s.maxProperties, ' entries');
    const min = typeof s.minimum === 'number' && s.minimum > -SAFE ? s.minimum : undefined;
    // The largest safe integer is a real bound for a parameter (page), implicit for anything else.
    const max = typeof s.maximum === 'number' && (s.maximum < SAFE || min !== undefined) ? s.maximum : undefined;
    range(min, max, '');
    if (typeof s.exclusiveMinimum === 'number') out.push(`> ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number') out.push(`< ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === 'number') out.push(`multiple of ${s.multipleOf}`);
    if (s.uniqueItems === true) out.push('unique items');
    const items = arrayItems(s);
    if (items && Array.isArray(items.enum)) out.push(`each one of ${items.enum.map((value) => JSON.stringify(value)).join(', ')}`);
    // A format (email, uri) says more than the long pattern that implements it.
    if (typeof s.pattern === 'string' && typeof s.format !== 'string') out.push(`pattern ${s.pattern}`);
    if (s.additionalProperties === false && s.properties) out.push('no other fields');
  }
  if ('default' in schema) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

function constraintList(schema: JsonSchema): Html | string {
  const list = constraints(schema);
  if (list.length === 0) return '';
  if (list.length === 1) return list[0] as string;
  return html`<ul class="constraints">
    ${list.map((item) => html`<li>${item}</li>`)}
  </ul>`;
}

/** Only `code` spans from the document's CommonMark text; everything else stays plain, escaped text. */
function inlineMarkdown(text: string): Html {
  return new Html(
    text
      .split(/(`[^`]+`)/)
      .map((piece) => (/^`[^`]+`$/.test(piece) ? `<code>${escapeHtml(piece.slice(1, -1))}</code>` : escapeHtml(piece)))
      .join(''),
  );
}

/** Ids as they are (they are `resource.verb`), with anything else made safe for an id and a URL fragment. */
function anchor(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '-');
}
