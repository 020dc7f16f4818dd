import fc from 'fast-check';
import { formBody, jsonBody, type Body, type FormHint } from './bodies';
import type { Operation, Parameter } from './openapi';
import { authArbitrary, type AuthChoice, type TokenFacts } from './tokens';
import { hostileUrlString, validish, type Hostility, type World } from './values';

// One fuzzed request for one operation of the document: its path parameters, query, headers, body and
// sender, each valid-looking or hostile, with notes saying what was made hostile. A few requests go
// beyond the document: wrong methods on its paths and paths it does not have.

export type FuzzRequest = {
  /** The document's name for the operation ("POST /api/auth/login"), or what lies beyond it. */
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  auth: AuthChoice;
  remoteAddress: string;
  notes: string[];
  /** The kind of body, without its particulars: failures are grouped by operation and this. */
  shape: string;
};

export type FuzzSetup = {
  operations: Operation[];
  world: World;
  /** Takes what an answer reveals (ids, keys, each field's values) into the world's pools, also under the resource's name. */
  learn: (answer: string, scope: string) => void;
  tokens: TokenFacts;
  /** Keyed by operation id ("PUT /api/auth/update-profile"): what the document does not say about a form. */
  formHints: Record<string, FormHint>;
  /** Addresses the fuzzer sends from; the test's own checks use others, so limits never stop them. */
  addresses: string[];
};

const HEX = '0123456789ABCDEF';

/** Percent-encodes text as a client would; lone surrogates become the three bytes WTF-8 gives them. */
export function encodeText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      for (const byte of [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)])
        out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** What a header can hold on the wire (Node refuses control characters there): UTF-8 bytes read as latin1. */
export function wireHeader(text: string): string {
  const latin1 = Buffer.from(text, 'utf8').toString('latin1');
  let out = '';
  for (const char of latin1) {
    const code = char.charCodeAt(0);
    if (code === 9 || (code >= 0x20 && code !== 0x7f)) out += char;
  }
  return out.trim();
}

type Piece = { text: string; notes: string[] };

const BROKEN_ESCAPES = [
  '%',
  '%G0',
  '%C0%80',
  '%00',
  '%2e%2e%2f',
  '%252e',
  '+',
  '%ED%A0%80',
  '%FF%FE',
  '%E2%80%AE',
  ';',
  '#',
];

const valueText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** A path or query value: valid-looking (encoded), hostile (encoded), or percent-escapes that decode badly. */
/** The resource a path belongs to ("appointments" in /api/appointments/{id}): pools of ids are kept per resource. */
export function scopeOf(path: string): string {
  return path.split('/')[2] ?? '';
}

/** A value from a live pool as it is when drawn, or else the fallback. */
function livePick(pool: string[], fallback: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.nat(), fc.nat({ max: 99 }), fallback)
    .map(([index, coin, made]) => (pool.length > 0 && coin < 60 ? pool[index % pool.length] : made));
}

/** A path or query value: valid-looking (encoded), hostile (encoded), or percent-escapes that decode badly. */
function urlValue(
  parameter: Parameter,
  where: string,
  setup: FuzzSetup,
  hostile: boolean,
  pool: string[] = [],
  known: string[] = [],
): fc.Arbitrary<Piece> {
  const { schema, name } = parameter;
  const generated = validish(schema, setup.world, 0, name);
  const valid = livePick(
    pool,
    known.length > 0 ? fc.oneof(fc.constantFrom(...known), generated) : generated,
  ).map((value): Piece => ({ text: encodeText(valueText(value)), notes: [] }));
  return fc.oneof(
    { weight: hostile ? 5 : 14, arbitrary: valid },
    {
      weight: hostile ? 3 : 1,
      arbitrary: hostileUrlString.map(({ value, label }): Piece => ({
        text: encodeText(value),
        notes: [`${where}: ${label}`],
      })),
    },
    {
      weight: hostile ? 1 : 0,
      arbitrary: fc
        .constantFrom(...BROKEN_ESCAPES)
        .map((text): Piece => ({ text, notes: [`${where}: escape ${text}`] })),
    },
  );
}

function pathOf(operation: Operation, setup: FuzzSetup, hostile: boolean): fc.Arbitrary<Piece> {
  const pieces = operation.pathParams.map((parameter) => {
    // An id in /api/appointments/{id} is most often one the appointments answers gave.
    const pool = setup.world.pool(`${scopeOf(operation.path)} ${parameter.name}`);
    const known =
      parameter.name === '*'
        ? setup.world.strings.filter((value) => !value.includes('?') && !value.startsWith('/'))
        : [];
    return fc
      .oneof(
        {
          weight: 20,
          arbitrary: urlValue(parameter, `path ${parameter.name}`, setup, hostile, pool, known),
        },
        { weight: 1, arbitrary: fc.constant<Piece>({ text: '', notes: [`path ${parameter.name}: empty`] }) },
      )
      .map((piece) => ({ name: parameter.name, piece }));
  });
  return fc.tuple(...pieces).map((filled) => {
    let path = operation.path;
    for (const { name, piece } of filled) path = path.replace(`{${name}}`, piece.text);
    return { text: path, notes: filled.flatMap(({ piece }) => piece.notes) };
  });
}

function queryOf(operation: Operation, setup: FuzzSetup, hostile: boolean): fc.Arbitrary<Piece> {
  const params = operation.query.map((parameter: Parameter) =>
    fc.oneof(
      {
        weight: parameter.required ? 1 : 4,
        arbitrary: fc.constant<Piece>({
          text: '',
          notes: parameter.required ? [`query ${parameter.name}: missing`] : [],
        }),
      },
      {
        weight: 10,
        arbitrary: urlValue(parameter, `query ${parameter.name}`, setup, hostile).map((piece): Piece => ({
          text: `${encodeURIComponent(parameter.name)}=${piece.text}`,
          notes: piece.notes,
        })),
      },
      {
        weight: hostile ? 1 : 0,
        arbitrary: fc.constant<Piece>({
          text: `${parameter.name}=a&${parameter.name}=b`,
          notes: [`query ${parameter.name}: given twice (an array)`],
        }),
      },
      {
        weight: hostile ? 1 : 0,
        arbitrary: fc.constant<Piece>({
          text: `${parameter.name}[a]=b`,
          notes: [`query ${parameter.name}: as an object`],
        }),
      },
    ),
  );
  const extra = fc.oneof(
    { weight: 12, arbitrary: fc.constant<Piece>({ text: '', notes: [] }) },
    {
      weight: hostile ? 1 : 0,
      arbitrary: hostileUrlString.map(({ value, label }): Piece => ({
        text: `${encodeText(value)}=${encodeText(value)}`,
        notes: [`query: unknown parameter, ${label}`],
      })),
    },
    {
      weight: hostile ? 1 : 0,
      arbitrary: fc.constant<Piece>({ text: `q=${'a'.repeat(100_000)}`, notes: ['query: 100 kB parameter'] }),
    },
    {
      weight: hostile ? 1 : 0,
      arbitrary: fc.constant<Piece>({
        text: Array.from({ length: 2_000 }, (_, i) => `p${i}=1`).join('&'),
        notes: ['query: 2,000 parameters'],
      }),
    },
  );
  return fc.tuple(fc.tuple(...params), extra).map(([filled, more]) => {
    const parts = [...filled, more].filter((piece) => piece.text !== '');
    return {
      text: parts.length > 0 ? `?${parts.map((piece) => piece.text).join('&')}` : '',
      notes: [...filled, more].flatMap((piece) => piece.notes),
    };
  });
}

type Headers = { headers: Record<string, string>; notes: string[] };

function headersOf(operation: Operation, setup: FuzzSetup, hostile: boolean): fc.Arbitrary<Headers> {
  const declared = operation.headers.map((parameter) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant<Headers>({ headers: {}, notes: [] }) },
      {
        weight: 6,
        arbitrary: validish(parameter.schema, setup.world, 0, parameter.name).map((value): Headers => ({
          headers: { [parameter.name]: wireHeader(valueText(value)) },
          notes: [],
        })),
      },
      {
        weight: hostile ? 3 : 1,
        arbitrary: hostileUrlString.map(({ value, label }): Headers => ({
          headers: { [parameter.name]: wireHeader(value) },
          notes: [`header ${parameter.name}: ${label}`],
        })),
      },
    ),
  );
  const extra = fc.oneof(
    { weight: 20, arbitrary: fc.constant<Headers>({ headers: {}, notes: [] }) },
    fc.constantFrom<Headers>(
      { headers: { 'x-forwarded-for': '1.2.3.4, 999.1.1.1, ::1, garbage' }, notes: ['x-forwarded-for junk'] },
      { headers: { 'x-real-ip': '\u00ff\u00fe' }, notes: ['x-real-ip junk'] },
      { headers: { accept: 'application/xml;q=2, */*;q=-1' }, notes: ['odd accept'] },
      { headers: { 'content-encoding': 'gzip' }, notes: ['claims gzip, is not'] },
      { headers: { 'accept-language': 'x'.repeat(50_000) }, notes: ['50 kB accept-language'] },
      { headers: { cookie: 'token=abc; token=def; =;;' }, notes: ['odd cookies'] },
      { headers: { range: 'bytes=999999999-1' }, notes: ['impossible range'] },
      { headers: { 'if-none-match': '*' }, notes: ['if-none-match *'] },
    ),
  );
  return fc.tuple(fc.tuple(...declared), extra).map(([filled, more]) => ({
    headers: Object.assign({}, ...[...filled, more].map((item) => item.headers)) as Record<string, string>,
    notes: [...filled, more].flatMap((item) => item.notes),
  }));
}

const MODES: { weight: number; name: string; hostility: Hostility }[] = [
  // Valid-looking in every part: these reach the handlers and the database.
  { weight: 2, name: 'clean', hostility: { leaf: 0, content: 0 } },
  // Valid in shape, hostile in text content (control characters, surrogates, injections).
  { weight: 3, name: 'content', hostility: { leaf: 0, content: 6 } },
  // Anything goes.
  { weight: 5, name: 'hostile', hostility: { leaf: 2, content: 1 } },
];

function bodyOf(operation: Operation, setup: FuzzSetup, hostility: Hostility): fc.Arbitrary<Body> {
  const hint = setup.formHints[operation.id];
  const none = fc.constant<Body>({ notes: [], shape: 'no body' });
  const stray = fc
    .constantFrom<Omit<Body, 'shape'>>(
      { payload: '{"a":1}', contentType: 'application/json', notes: ['a JSON body it does not take'] },
      {
        payload: `${'['.repeat(100_000)}`,
        contentType: 'application/json',
        notes: ['100,000 open brackets'],
      },
      { payload: 'hello', contentType: 'text/plain', notes: ['a text body it does not take'] },
    )
    .map((body): Body => ({ ...body, shape: body.notes[0] ?? 'a body it does not take' }));
  const hostile = hostility.leaf > 0;
  if (operation.jsonBody) {
    const json = jsonBody(operation.jsonBody, setup.world, hostility);
    if (!hostile) return json;
    return fc.oneof(
      { weight: 12, arbitrary: json },
      { weight: 1, arbitrary: formBody(operation, hint, setup.world, hostility) },
      { weight: 1, arbitrary: none.map((body) => ({ ...body, notes: ['no body'] })) },
    );
  }
  if (operation.form) {
    const form = formBody(operation, hint, setup.world, hostility);
    if (!hostile) return form;
    return fc.oneof(
      { weight: 12, arbitrary: form },
      { weight: 1, arbitrary: jsonBody(hint?.fields ?? { type: 'object' }, setup.world, hostility) },
      { weight: 1, arbitrary: none.map((body) => ({ ...body, notes: ['no body'] })) },
    );
  }
  return hostile ? fc.oneof({ weight: 10, arbitrary: none }, { weight: 1, arbitrary: stray }) : none;
}

function operationRequest(operation: Operation, setup: FuzzSetup): fc.Arbitrary<FuzzRequest> {
  // Built once per mode (not per request: building the arbitraries costs more than drawing from them).
  return fc.oneof(
    ...MODES.map(({ weight, name, hostility }) => {
      const hostile = hostility.leaf > 0;
      return {
        weight,
        arbitrary: fc
          .record({
            path: pathOf(operation, setup, hostile),
            query: queryOf(operation, setup, hostile),
            headers: headersOf(operation, setup, hostile),
            body: bodyOf(operation, setup, hostility),
            auth: authArbitrary(setup.tokens),
            remoteAddress: fc.constantFrom(...setup.addresses),
          })
          .map(({ path, query, headers, body, auth, remoteAddress }): FuzzRequest => ({
            operation: operation.id,
            method: operation.method,
            url: `${path.text}${query.text}`,
            headers: {
              ...headers.headers,
              ...(body.contentType !== undefined ? { 'content-type': body.contentType } : {}),
            },
            payload: body.payload,
            auth,
            remoteAddress,
            notes: [`${name} request`, ...path.notes, ...query.notes, ...headers.notes, ...body.notes],
            shape: body.shape,
          })),
      };
    }),
  );
}

/** Beyond the document: other methods on its paths, and paths it does not have. */
function strayRequest(setup: FuzzSetup): fc.Arbitrary<FuzzRequest> {
  const paths = [...new Set(setup.operations.map((operation) => operation.path))];
  const wrongMethod = fc
    .tuple(
      fc.constantFrom(...paths),
      fc.constantFrom('PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'DELETE', 'PUT', 'POST', 'GET'),
    )
    .map(([path, method]) => ({
      method,
      url: path.replace(/\{[^}]*\}/g, '00000000-0000-4000-8000-000000000000'),
      note: `${method} on a documented path`,
    }));
  const unknownPath = fc.oneof(
    fc.constantFrom(
      '/api/',
      '/api',
      '/api/nope',
      '/api//auth//login',
      '/api/auth/../health',
      '/api/%2e%2e/%2e%2e/etc/passwd',
      '/api/auth/%00',
      '/api/appointments/%ED%A0%80',
      '/api/docs',
      '/api/docs/json',
    ),
    fc.constantFrom(...paths).map((path) => `${path.replace(/\{[^}]*\}/g, 'x')}/extra`),
    hostileUrlString.map(({ value }) => `/api/${encodeText(value)}`),
    fc.constant(`/api/${'a/'.repeat(20_000)}`),
  );
  // A link the server handed out (a signed file link), followed as given or with a piece changed.
  const links = setup.world.pool('url');
  const givenLink = fc
    .tuple(
      livePick(links, fc.constant('/api/health')),
      fc.constantFrom('as given', 'signature changed', 'expiry changed', 'key changed', 'query dropped'),
    )
    .map(([link, change]) => {
      const url = String(link);
      const changed =
        change === 'signature changed'
          ? url.replace(/(signature=)([^&])/, '$1A')
          : change === 'expiry changed'
            ? url.replace(/expires=\d+/, 'expires=99999999999')
            : change === 'key changed'
              ? url.replace(/[0-9a-f]{32}/, '0'.repeat(32))
              : change === 'query dropped'
                ? (url.split('?')[0] ?? url)
                : url;
      return { method: 'GET', url: changed, note: `a link the server gave, ${change}` };
    });
  return fc
    .tuple(
      fc.oneof(
        wrongMethod,
        givenLink,
        unknownPath.chain((url) =>
          fc
            .constantFrom('GET', 'POST')
            .map((method) => ({ method, url, note: 'a path the document does not have' })),
        ),
      ),
      authArbitrary(setup.tokens),
      fc.constantFrom(...setup.addresses),
    )
    .map(([{ method, url, note }, auth, remoteAddress]) => ({
      operation: 'beyond the document',
      method,
      url,
      headers: {},
      auth,
      remoteAddress,
      notes: [note],
      shape: note.replace(/\d+/g, 'N'),
    }));
}

/** Every request of the fuzz gate: each documented operation as often as any other. */
export function requestArbitrary(setup: FuzzSetup): fc.Arbitrary<FuzzRequest> {
  const perOperation = setup.operations.map((operation) => ({
    weight: 1,
    arbitrary: operationRequest(operation, setup),
  }));
  return fc.oneof(...perOperation, { weight: 1, arbitrary: strayRequest(setup) });
}
