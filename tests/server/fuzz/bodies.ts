import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { TINY_PNG } from '../../fixtures/images';
import type { JsonSchema, Operation } from './openapi';
import { fuzzed, nestingDepth, toJsonText, type Hostility, type World } from './values';

// Request bodies: JSON built from the operation's schema, junk JSON (truncated, invalid, deeply nested,
// not UTF-8, too large), right bodies under wrong content types, and multipart forms well made and
// broken (no boundary, a wrong one, cut short, thousands of fields, many files, odd part headers).

/** `shape` names the kind of body without its particulars ("multipart cut at byte N of N"): failures are grouped by it. */
export type Body = { payload?: string | Buffer; contentType?: string; notes: string[]; shape: string };

const shapeOf = (label: string) => label.replace(/\d+/g, 'N');

/** What the document cannot say about a form: its text fields' schema and its file fields' names. */
export type FormHint = { fields?: JsonSchema; files: string[] };

const JSON_TYPE = 'application/json';

// ---- JSON ----

function junkJson(valid: string, world: World): fc.Arbitrary<Body> {
  const json = (payload: string | Buffer, label: string, shape = shapeOf(label)): Body => ({
    payload,
    contentType: JSON_TYPE,
    notes: [label],
    shape,
  });
  const notUtf8 = [
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from([0xc0, 0x80]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  ];
  const junk = [
    "{'a':1}",
    '{"a":}',
    '{"a":1,}',
    '[1,2',
    'NaN',
    'undefined',
    '{a:1}',
    '"unterminated',
    '{"a":"\\u12"}',
    '{"a":"\\x00"}',
    '{"a":1}}',
    '}{',
    '',
    ' ',
    'null',
    'true',
    '0',
    '-0',
    '1e999',
    '"a string"',
    '[]',
    '{}',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
  ];
  const around = [`\uFEFF${valid}`, `${valid}garbage`, `[${valid}]`, `${valid}${valid}`, ` \n\t${valid}\n`];
  // Thunks, so only the chosen one is built (some are a megabyte).
  return fc.tuple(fc.nat(), fc.nat({ max: 999 }), nestingDepth).map(([pick, fraction, size]) => {
    const shapes: (() => Body)[] = [
      () => {
        const cut = Math.floor((valid.length * fraction) / 1000);
        return json(valid.slice(0, cut), `JSON cut at ${cut} of ${valid.length}`);
      },
      () => {
        const text = junk[pick % junk.length] ?? '';
        return json(text, `junk JSON ${JSON.stringify(text)}`, 'junk JSON');
      },
      () => json(around[pick % around.length] ?? valid, 'valid JSON with something around it'),
      () => json(valid.replace(/^\{"([^"]*)":/, '{"$1":[],"$1":'), 'a key given twice'),
      () => json('['.repeat(size), `${size} open brackets, never closed`),
      () => json(`${'{"a":'.repeat(size)}1`, `${size} open objects, never closed`),
      () => json(`${'['.repeat(size)}${']'.repeat(size)}`, `arrays nested ${size} deep`),
      () => {
        const bytes = notUtf8[pick % notUtf8.length] ?? Buffer.alloc(1, 0xff);
        const start = Buffer.from(valid.slice(0, Math.max(valid.indexOf(':') + 2, 1)));
        return json(
          Buffer.concat([start, bytes, Buffer.from('"}')]),
          `bytes that are not UTF-8: ${bytes.toString('hex')}`,
        );
      },
      () => json(Buffer.from(valid, 'utf16le'), 'UTF-16 text labelled JSON'),
      () => json(`[${'0,'.repeat(size)}0]`, `array of ${size} numbers`),
      () => {
        const count = Math.floor(size / 4);
        return json(
          `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}`,
          `object with ${count} keys`,
        );
      },
    ];
    // A body over the limit is a megabyte to build and to refuse: one junk body in thirty.
    if (pick % 30 === 0)
      return json(`{"a":"${'x'.repeat(world.bodyLimitBytes)}"}`, 'larger than the body limit');
    const shape = shapes[pick % shapes.length];
    if (!shape) throw new Error('no junk JSON shape');
    return shape();
  });
}

const WRONG_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=----fuzz',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=nope',
  'APPLICATION/JSON',
  'application/json ',
  'application/jsonx',
  'application/json;',
  'application/json;;;',
  'application/vnd.api+json',
  'application/json, text/html',
  '*/*',
  '',
  'application/json; boundary=x',
  'json',
  '\u00e9/\u00e9',
];

function wrongContentType(valid: string): fc.Arbitrary<Body> {
  return fc.nat().map((pick): Body => {
    if (pick % 12 === 0)
      return { payload: valid, notes: ['JSON with no content type'], shape: 'JSON with no content type' };
    if (pick % 12 === 1)
      return {
        payload: `a=1&b=${encodeURIComponent(valid.slice(0, 2_000))}&b=2&c[d]=e`,
        contentType: 'application/x-www-form-urlencoded',
        notes: ['a URL-encoded form'],
        shape: 'a URL-encoded form',
      };
    const contentType = WRONG_TYPES[pick % WRONG_TYPES.length] ?? '';
    const label = `JSON labelled ${JSON.stringify(contentType)}`;
    return { payload: valid, contentType, notes: [label], shape: label };
  });
}

/** A JSON body for an operation: mostly built from its schema, often broken on purpose. */
export function jsonBody(schema: JsonSchema, world: World, hostility: Hostility): fc.Arbitrary<Body> {
  return fuzzed(schema, world, hostility, 'body').chain((gen) => {
    const text = toJsonText(gen.value);
    const asJson: Body = { payload: text, contentType: JSON_TYPE, notes: gen.notes, shape: 'JSON' };
    if (hostility.leaf === 0) return fc.constant(asJson);
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant(asJson) },
      { weight: 2, arbitrary: junkJson(text, world) },
      { weight: 2, arbitrary: wrongContentType(text) },
    );
  });
}

// ---- Files ----

function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const type = Buffer.from('IHDR');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, ihdr])));
  return Buffer.concat([TINY_PNG.subarray(0, 8), length, type, ihdr, crc, TINY_PNG.subarray(33)]);
}

function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
  ]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
    sof,
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** Bytes from a seed, quickly (fast-check would draw each byte on its own). */
function noise(seed: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed | 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

const MAGIC: [string, Buffer][] = [
  ['PNG signature', TINY_PNG.subarray(0, 8)],
  ['JPEG start', Buffer.from([0xff, 0xd8, 0xff, 0xe0])],
  ['PDF header', Buffer.from('%PDF-1.7\n')],
  ['WebP header', Buffer.from('RIFF\xff\xff\xff\x7fWEBPVP8 ', 'latin1')],
  ['GIF header', Buffer.from('GIF89a')],
  ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>')],
  ['ZIP', Buffer.from('PK\x03\x04', 'latin1')],
  ['ELF', Buffer.from('\x7fELF', 'latin1')],
];

/** A file's bytes; only hostile requests send large or over-limit ones. */
function fileBytes(world: World, hostile: boolean): fc.Arbitrary<{ bytes: Buffer; label: string }> {
  const large = hostile ? 1 : 0;
  return fc.oneof(
    { weight: 80, arbitrary: fc.constant({ bytes: TINY_PNG, label: 'a real 1x1 PNG' }) },
    {
      weight: 24,
      arbitrary: fc
        .tuple(
          fc.constantFrom('png', 'jpeg'),
          fc.integer({ min: 20_000, max: 65_535 }),
          fc.integer({ min: 20_000, max: 65_535 }),
        )
        .map(([kind, width, height]) => ({
          bytes: kind === 'png' ? pngHeader(width, height) : jpegHeader(width, height),
          label: `a ${kind} claiming ${width}x${height} pixels`,
        })),
    },
    {
      weight: 40,
      arbitrary: fc
        .tuple(fc.constantFrom(...MAGIC), fc.integer(), fc.nat({ max: 2_000 }))
        .map(([[label, magic], seed, length]) => ({
          bytes: Buffer.concat([magic, noise(seed, length)]),
          label: `${label} then ${length} random bytes`,
        })),
    },
    {
      weight: 12,
      arbitrary: fc
        .tuple(fc.integer(), fc.nat({ max: 2_000 }))
        .map(([seed, length]) => ({ bytes: noise(seed, length), label: `${length} random bytes` })),
    },
    { weight: 8, arbitrary: fc.constant({ bytes: Buffer.alloc(0), label: 'an empty file' }) },
    {
      weight: large * 4,
      arbitrary: fc.tuple(fc.integer(), fc.integer({ min: 100_000, max: 600_000 })).map(([seed, length]) => ({
        bytes: Buffer.concat([TINY_PNG.subarray(0, 8), noise(seed, length)]),
        label: `PNG signature then ${length} random bytes`,
      })),
    },
    {
      // One form in a few hundred: ten megabytes to build and to refuse.
      weight: large,
      arbitrary: fc.constant(null).map(() => ({
        bytes: Buffer.concat([TINY_PNG, Buffer.alloc(world.uploadLimitBytes + 1 - TINY_PNG.length)]),
        label: 'one byte over the upload limit',
      })),
    },
  );
}

// ---- Multipart ----

type Part = { headers: string[]; data: Buffer };

function textPart(name: string, value: string): Part {
  return { headers: [`Content-Disposition: form-data; name="${name}"`], data: Buffer.from(value) };
}

function filePart(name: string, filename: string, contentType: string, data: Buffer): Part {
  return {
    headers: [
      `Content-Disposition: form-data; name="${name}"; filename="${filename}"`,
      `Content-Type: ${contentType}`,
    ],
    data,
  };
}

function assemble(parts: Part[], boundary: string, newline = '\r\n', close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}${newline}${part.headers.join(newline)}${newline}${newline}`),
      part.data,
      Buffer.from(newline),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--${newline}`));
  return Buffer.concat(chunks);
}

/** A form's text value: a valid-looking or hostile value of the field's schema, as text. */
const asText = (value: unknown) => (typeof value === 'string' ? value : toJsonText(value));

function formFields(
  hint: FormHint | undefined,
  world: World,
  hostility: Hostility,
): fc.Arbitrary<{ parts: Part[]; notes: string[] }> {
  const schema: JsonSchema = hint?.fields ?? { type: 'object', properties: { note: { type: 'string' } } };
  return fuzzed(schema, world, hostility, 'form').map((gen) => {
    const value = gen.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { parts: [textPart('form', asText(value))], notes: gen.notes };
    return {
      parts: Object.entries(value).map(([name, field]) => textPart(name, asText(field))),
      notes: gen.notes,
    };
  });
}

/** A multipart body for a form operation, or for any other to see it refused cleanly. */
export function formBody(
  operation: Operation,
  hint: FormHint | undefined,
  world: World,
  hostility: Hostility,
): fc.Arbitrary<Body> {
  const fileFields = [
    ...new Set([...(hint?.files ?? []), ...operation.summaryNames, 'image', 'photo', 'file']),
  ];
  const filename = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('photo.png', 'scan.pdf', 'x.jpg', 'noextension') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '../../../../etc/passwd',
        'a\u0000.png',
        'a"b.png',
        `${'n'.repeat(5_000)}.png`,
        '',
        '\u00e9\u{1F600}.png',
        'CON',
      ),
    },
  );
  const claimed = fc.constantFrom(
    'image/png',
    'image/jpeg',
    'image/webp',
    'application/pdf',
    'text/html',
    'application/x-msdownload',
    'image/svg+xml',
    '',
    'image/png; charset=\u00e9',
  );
  const file = fc
    .tuple(fc.constantFrom(...fileFields), filename, claimed, fileBytes(world, hostility.leaf > 0))
    .map(([field, name, type, { bytes, label }]) => ({
      part: filePart(field, name, type, bytes),
      note: `file ${field} (${JSON.stringify(name.slice(0, 40))}, ${type || 'no type'}): ${label}`,
    }));
  const base = fc
    .tuple(formFields(hint, world, hostility), fc.option(file, { freq: 5, nil: undefined }), fc.boolean())
    .map(([fields, chosen, fileFirst]) => {
      const parts = chosen
        ? fileFirst
          ? [chosen.part, ...fields.parts]
          : [...fields.parts, chosen.part]
        : fields.parts;
      return { parts, notes: [...fields.notes, ...(chosen ? [chosen.note] : ['no file'])] };
    });
  const boundary = '----kincare-fuzz-7MA4YWxkTrZu0gW';
  const multipart = `multipart/form-data; boundary=${boundary}`;
  return fc
    .tuple(base, fc.nat({ max: 1_000_000 }), fc.nat({ max: 999 }))
    .map(([{ parts, notes }, pick, cut]) => {
      const body = (payload: Buffer | string, contentType: string | undefined, note: string): Body => ({
        payload,
        contentType,
        notes: [...notes, note],
        shape: shapeOf(note),
      });
      const whole = () => assemble(parts, boundary);
      const extraFiles = 2 + (pick % 8);
      const extraFields = 1_000 + (pick % 4_000);
      // Thunks, so only the chosen shape is built.
      const shapes: (() => Body)[] = [
        () => body(whole(), multipart, 'a well-formed form'),
        () => body(whole(), 'multipart/form-data', 'multipart with no boundary'),
        () => body(whole(), 'multipart/form-data; boundary=', 'multipart with an empty boundary'),
        () =>
          body(whole(), 'multipart/form-data; boundary=something-else', 'multipart with the wrong boundary'),
        () => {
          const full = whole();
          const at = Math.floor((full.length * cut) / 1000);
          return body(full.subarray(0, at), multipart, `multipart cut at byte ${at} of ${full.length}`);
        },
        () => body(assemble(parts, boundary, '\r\n', false), multipart, 'multipart with no closing boundary'),
        () => body(assemble(parts, boundary, '\n'), multipart, 'multipart with bare LF line ends'),
        () => body(Buffer.alloc(0), multipart, 'multipart with an empty body'),
        () => {
          const long = 'b'.repeat(300);
          return body(
            assemble(parts, long),
            `multipart/form-data; boundary=${long}`,
            'a 300-character boundary',
          );
        },
        () =>
          body(
            assemble(
              [...parts, ...Array.from({ length: extraFields }, (_, i) => textPart(`f${i}`, 'x'))],
              boundary,
            ),
            multipart,
            `${extraFields} more fields`,
          ),
        () =>
          body(
            assemble(
              [
                ...parts,
                ...Array.from({ length: extraFiles }, (_, i) =>
                  filePart(fileFields[i % fileFields.length] ?? 'image', `f${i}.png`, 'image/png', TINY_PNG),
                ),
              ],
              boundary,
            ),
            multipart,
            `${extraFiles} more files`,
          ),
        () =>
          body(
            assemble(
              [{ headers: ['Content-Type: text/plain'], data: Buffer.from('no disposition') }, ...parts],
              boundary,
            ),
            multipart,
            'a part with no Content-Disposition',
          ),
        () =>
          body(
            assemble(
              [{ headers: ['Content-Disposition: form-data'], data: Buffer.from('no name') }, ...parts],
              boundary,
            ),
            multipart,
            'a part with no name',
          ),
        () =>
          body(
            assemble(
              [
                {
                  headers: [`Content-Disposition: form-data; name="${'n'.repeat(100_000)}"`],
                  data: Buffer.from('x'),
                },
                ...parts,
              ],
              boundary,
            ),
            multipart,
            'a 100 kB field name',
          ),
        () =>
          body(
            assemble(
              [
                { headers: [Buffer.from([0xff, 0xfe, 0x00]).toString('latin1')], data: Buffer.from('x') },
                ...parts,
              ],
              boundary,
            ),
            multipart,
            'part headers that are not text',
          ),
        () =>
          body(
            assemble(
              [
                {
                  headers: [
                    'Content-Disposition: form-data; name="a"',
                    'Content-Type: multipart/mixed; boundary=inner',
                  ],
                  data: assemble(parts, 'inner'),
                },
              ],
              boundary,
            ),
            multipart,
            'a nested multipart',
          ),
        () => body(`{"image":"${TINY_PNG.toString('base64')}"}`, multipart, 'JSON labelled multipart'),
        () => body(whole(), 'application/json', 'a form labelled JSON'),
        () => body(whole(), 'text/plain', 'a form labelled text'),
      ];
      // Clean and content requests send well-made forms, so their fields and files reach the handler;
      // hostile ones mostly break the form itself.
      const shape = hostility.leaf === 0 || pick % 5 === 0 ? shapes[0] : shapes[pick % shapes.length];
      if (!shape) throw new Error('no multipart shape');
      return shape();
    });
}
