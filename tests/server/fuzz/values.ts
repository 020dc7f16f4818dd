import fc from 'fast-check';
import type { JsonSchema } from './openapi';

// Values for the fuzz gate: near-valid ones built from a field's JSON schema (so a request can get past
// validation into the handler and the database), and hostile ones (wrong types, huge and empty strings,
// control characters, lone surrogates, bad ids and dates, arrays for objects, deep nesting). Every
// hostile value carries a label, so a failure report says what was done to the request.

/**
 * What the generator knows of the server it fuzzes: real ids and keys, limits. The pools are live: the
 * harness adds what the server's answers reveal as the run goes (a record created, a session opened), so
 * later requests name things that exist now, not only what existed when the run began.
 */
export type World = {
  /** Real ids (users, patients, caregivers, records): a valid-looking id is often one of these. */
  ids: string[];
  /** Other real strings (file keys, signed links): used for a field whose pattern they match. */
  strings: string[];
  /** The strings the server's answers gave for a field of this name ("patient_id", "id", "key"). */
  pool: (name: string) => string[];
  /** Every JSON body schema in the document, to fill free-form objects with something plausible. */
  bodies: JsonSchema[];
  bodyLimitBytes: number;
  uploadLimitBytes: number;
};

/** A generated value and what is hostile in it ("body.notes: U+0000 inside"). */
export type Gen<T = unknown> = { value: T; notes: string[] };

/** JSON text spliced into a body as it is: nesting too deep for JSON.stringify, keys like __proto__. */
export class RawJson {
  constructor(readonly text: string) {}
}

const RAW_MARK = '@@fuzz-raw-json-';

/** JSON.stringify, except that RawJson values are written verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof RawJson ? `${RAW_MARK}${raws.push(inner.text) - 1}` : inner,
  ) as string | undefined;
  if (text === undefined) return '';
  return text.replace(
    new RegExp(`"${RAW_MARK}(\\d+)"`, 'g'),
    (_match, index: string) => raws[Number(index)] ?? 'null',
  );
}

const labelled = <T>(arbitrary: fc.Arbitrary<T>, label: string | ((value: T) => string)) =>
  arbitrary.map((value) => ({ value, label: typeof label === 'string' ? label : label(value) }));

const codePoint = (char: string) =>
  [...char].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** Short text around a character, so the character is inside a field, not the whole of it. */
const around = (chars: string[], label: string) =>
  fc
    .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...chars), fc.string({ maxLength: 6 }))
    .map(([before, char, after]) => ({
      value: `${before}${char}${after}`,
      label: `${label} ${codePoint(char)}`,
    }));

export const CONTROL_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\u000b',
  '\f',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
];
export const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDE00\uD83D'];
const ODD_UNICODE = [
  '\uFEFF',
  '\u202E',
  '\u200B',
  '\u2028',
  '\u2029',
  '\uFFFE',
  '\uFFFF',
  '\uFFFD',
  'e\u0301',
  '\u{1F600}',
  '\u{10FFFF}',
  '\u0130',
  '\uFB03',
];
const INJECTIONS = [
  "' OR '1'='1",
  "'; drop table users; --",
  '\\',
  '%',
  '_',
  '$1',
  "E'\\x00'",
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  'lab/../../../x.png',
  '%s%s%s%n',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  '[object Object]',
];
const BAD_DATES = [
  '2024-02-30',
  '2023-02-29',
  '2024-13-01',
  '2024-00-10',
  '0000-00-00',
  '9999-99-99',
  '2024-1-1',
  '-000001-01-01',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-14T00:00:00.000Z',
  '10000-01-01',
  '1969-12-31T23:59:59Z',
  '2024-01-01T25:61:00Z',
  '2024-01-01T10:00:00+99:00',
  '2024-01-01T10:00:00.123456789Z',
  '2024-W01-1',
  'Invalid Date',
  'today',
  '1e10',
  '1700000000000',
  '2024-01-01\u0000',
];
const NUMBER_LIKE = [
  '1e400',
  '-1e400',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '-1',
  ' 1',
  '9'.repeat(400),
  '1_000',
];

/** Characters repeated into a huge string: plain, multi-byte, control, surrogate, JSON-escaped. */
const HUGE_UNITS = ['a', 'é', '\u0000', '\u{1F600}', '\uD800', ' ', '%', '"\\', 'ab\u0001'];

const hugeString = fc
  .tuple(fc.constantFrom(...HUGE_UNITS), fc.integer({ min: 100_000, max: 300_000 }))
  .map(([unit, length]) => ({
    value: unit.repeat(Math.ceil(length / unit.length)),
    label: `huge string: ${JSON.stringify(unit)} x ${Math.ceil(length / unit.length)}`,
  }));

const badUuid = fc.oneof(
  labelled(
    fc.constantFrom('not-a-uuid', '0', '-1', '', ' ', 'null', 'g'.repeat(36)),
    (value) => `bad id ${JSON.stringify(value)}`,
  ),
  fc
    .tuple(
      fc.uuid(),
      fc.constantFrom(
        (u: string) => `${u}0`,
        (u: string) => u.slice(1),
        (u: string) => u.replace(/-/g, ''),
        (u: string) => `{${u}}`,
        (u: string) => u.toUpperCase(),
        (u: string) => `${u.slice(0, -1)}g`,
        (u: string) => ` ${u}`,
        (u: string) => `${u}\u0000`,
        (u: string) => u.replace(/-/g, '_'),
        (u: string) => `urn:uuid:${u}`,
        (u: string) => `${u},${u}`,
        (u: string) => `${u}' or '1'='1`,
      ),
    )
    .map(([uuid, change]) => ({ value: change(uuid), label: `bad id ${JSON.stringify(change(uuid))}` })),
);

const badDate = fc.oneof(
  labelled(fc.constantFrom(...BAD_DATES), (value) => `bad date ${JSON.stringify(value)}`),
  labelled(
    fc
      .date({
        min: new Date(-8_640_000_000_000_000),
        max: new Date(8_640_000_000_000_000),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString()),
    (value) => `far date ${value}`,
  ),
);

/**
 * Any code points, lone surrogates included. (fc.string's 'binary' unit would do, but building it maps
 * every code point: most of a second, for each process.)
 */
const anyCodePoints = fc
  .array(
    fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
    { maxLength: 24 },
  )
  .map((chars) => chars.join(''));

// Built once: building the arbitraries costs more than drawing from them.
const SHORT_HOSTILE: fc.WeightedArbitrary<{ value: string; label: string }>[] = [
  { weight: 3, arbitrary: around(CONTROL_CHARS, 'control character') },
  { weight: 3, arbitrary: around(LONE_SURROGATES, 'lone surrogate') },
  { weight: 2, arbitrary: around(ODD_UNICODE, 'odd unicode') },
  {
    weight: 2,
    arbitrary: labelled(fc.constantFrom(...INJECTIONS), (value) => `injection ${JSON.stringify(value)}`),
  },
  { weight: 1, arbitrary: labelled(fc.constantFrom('', ' ', '\t\n', '\u00a0\u2003'), 'empty or blank') },
  { weight: 1, arbitrary: labelled(anyCodePoints, 'random code points') },
];
const shortHostileByLength = new Map<number, fc.Arbitrary<{ value: string; label: string }>>();

/** Hostile strings short enough to fit a field's maximum length: the content is what is wrong. */
export function shortHostileString(maxLength = 64): fc.Arbitrary<{ value: string; label: string }> {
  const limit = Math.max(maxLength, 1);
  let arbitrary = shortHostileByLength.get(limit);
  if (!arbitrary) {
    arbitrary = fc.oneof(...SHORT_HOSTILE).filter((item) => item.value.length <= limit);
    shortHostileByLength.set(limit, arbitrary);
  }
  return arbitrary;
}

const numberLike = labelled(
  fc.constantFrom(...NUMBER_LIKE),
  (value) => `number-like ${JSON.stringify(value.slice(0, 20))}`,
);

/** Every hostile string: the short ones, huge ones, bad ids and dates, number-like text. */
export const hostileString: fc.Arbitrary<{ value: string; label: string }> = fc.oneof(
  { weight: 12, arbitrary: shortHostileString(200) },
  { weight: 2, arbitrary: hugeString },
  { weight: 4, arbitrary: badUuid },
  { weight: 4, arbitrary: badDate },
  { weight: 2, arbitrary: numberLike },
);

/** The same for a URL or a header, where a huge value is rarer (each costs a megabyte of escapes). */
export const hostileUrlString: fc.Arbitrary<{ value: string; label: string }> = fc.oneof(
  { weight: 40, arbitrary: shortHostileString(200) },
  { weight: 1, arbitrary: hugeString },
  { weight: 12, arbitrary: badUuid },
  { weight: 12, arbitrary: badDate },
  { weight: 6, arbitrary: numberLike },
);

/**
 * How deep to nest or how many to repeat: mostly thousands (deep enough to break a recursive walk),
 * now and then a hundred thousand (near the body limit, and a megabyte to parse).
 */
export const nestingDepth = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1_000, max: 10_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 150_000 }) },
);

const deepNesting = fc.tuple(fc.constantFrom('array', 'object'), nestingDepth).map(([kind, depth]) => ({
  value: new RawJson(
    kind === 'array'
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  ),
  label: `${kind}s nested ${depth} deep`,
}));

const pollution = labelled(
  fc.constantFrom(
    new RawJson('{"__proto__":{"isAdmin":true,"role":"Admin"}}'),
    new RawJson('{"constructor":{"prototype":{"polluted":true}}}'),
    new RawJson('{"toString":1,"valueOf":"x","hasOwnProperty":null}'),
  ),
  (value) => `prototype keys ${value.text}`,
);

const wrongScalar = labelled(
  fc.constantFrom<unknown>(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 4294967296, true, false, null),
  (value) => `wrong type ${JSON.stringify(value)}`,
);

/** A value of the wrong kind for this schema: an array where an object goes, an object for an array... */
export function wrongKind(schema: JsonSchema, world: World): fc.Arbitrary<{ value: unknown; label: string }> {
  const type = typeOf(schema);
  const options: fc.Arbitrary<{ value: unknown; label: string }>[] = [
    wrongScalar,
    labelled(
      fc.constantFrom<unknown>([], {}, [null], [[]], { '': '' }),
      (value) => `wrong type ${JSON.stringify(value)}`,
    ),
  ];
  if (type === 'object') {
    options.push(
      validish(schema, world, 3).map((value) => ({
        value: [value, value],
        label: 'array where an object goes',
      })),
      labelled(fc.constant<unknown>('{}'), 'object as a string'),
    );
  }
  if (type === 'array') {
    const items = schema.items ?? {};
    options.push(
      validish(items, world, 3).map((value) => ({
        value: { 0: value, length: 1 },
        label: 'object where an array goes',
      })),
      validish(items, world, 3).map((value) => ({ value, label: 'one item where an array goes' })),
      fc
        .tuple(
          validish(items, world, 3),
          fc.integer({ min: (schema.maxItems ?? 100) + 1, max: (schema.maxItems ?? 100) + 300 }),
        )
        .map(([value, count]) => ({
          value: Array.from({ length: count }, () => value),
          label: `${count} items`,
        })),
    );
  }
  if (type === 'string') {
    options.push(
      labelled(
        fc.constantFrom<unknown>(['a'], { value: 'a' }, 12345),
        (value) => `not a string: ${JSON.stringify(value)}`,
      ),
    );
  }
  if (type === 'integer' || type === 'number') {
    const min = schema.minimum ?? schema.exclusiveMinimum;
    const max = schema.maximum ?? schema.exclusiveMaximum;
    options.push(
      labelled(
        fc.constantFrom<unknown>(
          '1',
          '',
          '1e3',
          0.5,
          -0.000001,
          ...(min !== undefined ? [min - 1] : []),
          ...(max !== undefined ? [max + 1, max * 2] : []),
        ),
        (value) => `out of range or mistyped number ${JSON.stringify(value)}`,
      ),
    );
  }
  return fc.oneof(...options);
}

/** Anything hostile for a field of this schema. */
export function hostileFor(
  schema: JsonSchema,
  world: World,
): fc.Arbitrary<{ value: unknown; label: string }> {
  return fc.oneof(
    { weight: 5, arbitrary: hostileString },
    { weight: 4, arbitrary: wrongKind(schema, world) },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: pollution },
  );
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

const safeRegExp = (pattern: string): RegExp | undefined => {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
};

/** Whether values pass a string schema's pattern and length (the server's own values for a field often do). */
function fitsString(schema: JsonSchema): (value: string) => boolean {
  const regExp = schema.pattern ? safeRegExp(schema.pattern) : undefined;
  return (value) =>
    (schema.maxLength === undefined || value.length <= schema.maxLength) &&
    (schema.minLength === undefined || value.length >= schema.minLength) &&
    (!regExp || regExp.test(value));
}

/** One of the live pool's values (as it is when the request is drawn), else the generated one. */
function fromPool(
  pool: string[],
  fits: (value: string) => boolean,
  generated: fc.Arbitrary<string>,
  share: number,
) {
  return fc.tuple(fc.nat(), fc.nat({ max: 99 }), generated).map(([index, coin, made]) => {
    const value = pool.length > 0 && coin < share ? pool[index % pool.length] : undefined;
    return value !== undefined && fits(value) ? value : made;
  });
}

function generatedString(schema: JsonSchema, world: World, name: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? min + 24, min + 24));
  if (schema.format === 'uuid' || /(^|_)id$/.test(name))
    return fromPool(world.ids, () => true, fc.uuid(), 50);
  if (schema.pattern) {
    const regExp = safeRegExp(schema.pattern);
    if (regExp) {
      const known = [...world.ids, ...world.strings].filter((value) => regExp.test(value));
      const matching = fc
        .stringMatching(regExp)
        .filter((value) => value.length <= (schema.maxLength ?? Infinity));
      return known.length > 0 ? fc.oneof(fc.constantFrom(...known), matching) : matching;
    }
  }
  if (schema.format === 'date-time' || /date|_at$/.test(name)) {
    // On the half hour, as a person would book it, in the forms a client sends.
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => new Date(Math.floor(date.getTime() / 1_800_000) * 1_800_000))
      .chain((date) =>
        fc.constantFrom(date.toISOString(), date.toISOString().slice(0, 10), date.toISOString().slice(0, 16)),
      );
  }
  if (schema.format === 'email' || /email/.test(name)) return fc.emailAddress();
  return fc.string({ minLength: min, maxLength: max });
}

/**
 * A string for a field: three times in four, one the server itself gave for a field of that name (a
 * patient_id, a record's id, a file key), so requests name things that exist and get past the checks.
 */
function validishString(schema: JsonSchema, world: World, name: string): fc.Arbitrary<unknown> {
  return fromPool(world.pool(name), fitsString(schema), generatedString(schema, world, name), 75);
}

/**
 * Free-form objects (a sync change's payload) above this depth are filled with another body of the
 * document; a body used as a fill starts at this depth, so fills never nest.
 */
const FILL_DEPTH = 4;
const MAX_DEPTH = 8;

const fillFromBodies = (world: World) =>
  fc.constantFrom(...world.bodies).chain((body) => validish(body, world, FILL_DEPTH));

/**
 * A value that should pass the schema (or nearly: patterns the generator cannot honour exactly are
 * approximated). `depth` stops free-form objects filled from other bodies from recursing for ever.
 */
export function validish(schema: JsonSchema, world: World, depth = 0, name = ''): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((alternative) => validish(alternative, world, depth + 1, name)));
  if (schema.allOf && schema.allOf[0]) return validish(schema.allOf[0], world, depth + 1, name);
  const base = validishOfType(schema, world, depth, name);
  const nullable = schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
  return nullable
    ? fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) })
    : base;
}

function validishOfType(
  schema: JsonSchema,
  world: World,
  depth: number,
  name: string,
): fc.Arbitrary<unknown> {
  switch (typeOf(schema)) {
    case 'string':
      return validishString(schema, world, name);
    case 'integer': {
      const min = Math.max(schema.minimum ?? -1000, -1e9);
      const max = Math.min(schema.maximum ?? 1_000_000, min + 1_000_000);
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) }),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(...[schema.minimum, schema.maximum].filter((v) => v !== undefined)),
        },
      );
    }
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? minLength + 3, minLength + 3));
      return fc.array(validish(schema.items ?? {}, world, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return validishObject(schema, world, depth);
    default:
      return depth < FILL_DEPTH && world.bodies.length > 0
        ? fc.oneof(fc.jsonValue({ maxDepth: 2 }), fillFromBodies(world))
        : fc.jsonValue({ maxDepth: 2 });
  }
}

function validishObject(schema: JsonSchema, world: World, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  if (Object.keys(properties).length === 0) {
    // A free-form object (a sync change's payload): often another body of the document, so it is
    // plausible enough to be stored.
    if (depth < FILL_DEPTH && world.bodies.length > 0)
      return fc.oneof(
        { weight: 3, arbitrary: fillFromBodies(world) },
        {
          weight: 1,
          arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), {
            maxKeys: 4,
          }),
        },
      );
    return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of Object.entries(properties)) model[key] = validish(child, world, depth + 1, key);
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
}

/** How hostile a generated body is: each leaf is replaced with this weight against a valid one. */
export type Hostility = { leaf: number; content: number };

/**
 * A value for the schema with some of its parts made hostile, and notes naming them: `leaf` is the
 * weight of a wholly hostile part (most fail validation: a 400), `content` of a string that fits its
 * field but holds control characters or injections (these reach the handler and the database).
 */
export function fuzzed(
  schema: JsonSchema,
  world: World,
  hostility: Hostility,
  path: string,
  depth = 0,
): fc.Arbitrary<Gen> {
  const plain = validish(schema, world, depth, path.split('.').pop() ?? '').map((value): Gen => ({
    value,
    notes: [],
  }));
  const options: fc.WeightedArbitrary<Gen>[] = [{ weight: 10, arbitrary: plain }];
  if (hostility.leaf > 0)
    options.push({
      weight: hostility.leaf,
      arbitrary: hostileFor(schema, world).map(({ value, label }) => ({
        value,
        notes: [`${path}: ${label}`],
      })),
    });
  const type = typeOf(schema);
  if (
    hostility.content > 0 &&
    type === 'string' &&
    !schema.enum &&
    !schema.pattern &&
    schema.format !== 'uuid'
  )
    options.push({
      weight: hostility.content,
      arbitrary: shortHostileString(schema.maxLength ?? 64).map(({ value, label }) => ({
        value,
        notes: [`${path}: ${label}`],
      })),
    });
  if (
    type === 'object' &&
    schema.properties &&
    Object.keys(schema.properties).length > 0 &&
    depth < MAX_DEPTH
  )
    options.push({ weight: 10, arbitrary: fuzzedObject(schema, world, hostility, path, depth) });
  if (
    type === 'object' &&
    Object.keys(schema.properties ?? {}).length === 0 &&
    depth < FILL_DEPTH &&
    world.bodies.length > 0
  )
    options.push({
      weight: 10,
      arbitrary: fc
        .constantFrom(...world.bodies)
        .chain((body) => fuzzed(body, world, hostility, path, FILL_DEPTH)),
    });
  if (type === 'array' && schema.items && depth < MAX_DEPTH) {
    const minLength = schema.minItems ?? 0;
    options.push({
      weight: 10,
      arbitrary: fc
        .array(fuzzed(schema.items, world, hostility, `${path}[]`, depth + 1), {
          minLength,
          maxLength: Math.max(minLength, Math.min(schema.maxItems ?? minLength + 3, minLength + 3)),
        })
        .map((items) => ({
          value: items.map((item) => item.value),
          notes: items.flatMap((item) => item.notes),
        })),
    });
  }
  return fc.oneof(...options);
}

function fuzzedObject(
  schema: JsonSchema,
  world: World,
  hostility: Hostility,
  path: string,
  depth: number,
): fc.Arbitrary<Gen> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(properties).map(([key, child]) =>
    fc
      .tuple(
        fc.oneof(
          { weight: required.has(key) ? 12 : 6, arbitrary: fc.constant('present' as const) },
          { weight: required.has(key) ? 1 : 4, arbitrary: fc.constant('absent' as const) },
        ),
        fuzzed(child, world, hostility, path ? `${path}.${key}` : key, depth + 1),
      )
      .map(([presence, gen]) => ({ key, presence, gen })),
  );
  // A field the schema does not have (mass assignment), in hostile requests only.
  const extra =
    hostility.leaf > 0
      ? fc.option(
          fc.tuple(
            fc.constantFrom('role', 'userId', 'patient_id', 'isAdmin', 'version', 'deleted_at', 'x'),
            hostileFor({}, world),
          ),
          { freq: 8 },
        )
      : fc.constant(null);
  return fc.tuple(fc.tuple(...entries), extra).map(([fields, extraField]) => {
    const value: Record<string, unknown> = {};
    const notes: string[] = [];
    for (const { key, presence, gen } of fields) {
      if (presence === 'absent') {
        if (required.has(key)) notes.push(`${path ? `${path}.` : ''}${key}: missing`);
        continue;
      }
      value[key] = gen.value;
      notes.push(...gen.notes);
    }
    if (extraField) {
      const [key, { value: extraValue, label }] = extraField;
      value[key] = extraValue;
      notes.push(`${path ? `${path}.` : ''}${key} (not in the schema): ${label}`);
    }
    return { value, notes };
  });
}
