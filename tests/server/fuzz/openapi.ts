// The routes to fuzz, read from the server's own OpenAPI document (GET /api/docs), so the fuzz gate
// follows the routes as they are added, renamed or given new fields: nothing here names a route.

/** The part of JSON Schema the document's zod-generated schemas use. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

export type Parameter = { name: string; required: boolean; schema: JsonSchema };

export type Operation = {
  /** "POST /api/auth/login", as the document names it. */
  id: string;
  method: string;
  /** The document's path template, with {name} placeholders ({*} for a wildcard). */
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  headers: Parameter[];
  /** The JSON body's schema, when the document gives one. */
  jsonBody?: JsonSchema;
  /**
   * Takes a form: a body method whose body the document does not describe (multipart routes read their
   * parts by hand), or one that lists multipart/form-data.
   */
  form: boolean;
  /** Words the summary puts in `backticks`: for a form, likely names of its fields. */
  summaryNames: string[];
  secured: boolean;
};

type RawOperation = {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
  summary?: string;
  consumes?: string[];
};

export type OpenApiDocument = { paths?: Record<string, Record<string, RawOperation>> };

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function parametersIn(raw: RawOperation, where: string): Parameter[] {
  return (raw.parameters ?? [])
    .filter((parameter) => parameter.in === where)
    .map((parameter) => ({
      name: parameter.name,
      required: parameter.required === true || where === 'path',
      schema: parameter.schema ?? {},
    }));
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths ?? {})) {
    for (const [lowerMethod, raw] of Object.entries(byMethod)) {
      if (!METHODS.has(lowerMethod)) continue;
      const method = lowerMethod.toUpperCase();
      const content = raw.requestBody?.content ?? {};
      const jsonType = Object.keys(content).find((type) => type.includes('json'));
      const multipart =
        Object.keys(content).some((type) => type.startsWith('multipart/')) ||
        (raw.consumes ?? []).some((type) => type.startsWith('multipart/'));
      operations.push({
        id: `${method} ${path}`,
        method,
        path,
        pathParams: parametersIn(raw, 'path'),
        query: parametersIn(raw, 'query'),
        headers: parametersIn(raw, 'header'),
        jsonBody: jsonType ? (content[jsonType]?.schema ?? {}) : undefined,
        form: multipart || (BODY_METHODS.has(method) && raw.requestBody === undefined),
        summaryNames: [...(raw.summary ?? '').matchAll(/`([A-Za-z0-9_-]+)`/g)].map((match) => match[1] ?? ''),
        secured: Array.isArray(raw.security) && raw.security.length > 0,
      });
    }
  }
  return operations;
}

/** Every JSON body schema in the document: free-form objects (a sync change's payload) are filled from them. */
export function bodySchemasOf(operations: Operation[]): JsonSchema[] {
  return operations.flatMap((operation) => (operation.jsonBody ? [operation.jsonBody] : []));
}
