import { createHmac } from 'node:crypto';
import fc from 'fast-check';

// What a fuzzed request says about who sends it: a real signed-in patient or caregiver (so the code
// behind the sign-in check is fuzzed too, not only the 401), nobody, or a forged or broken token. Forged
// tokens start from a real token's claims, so they follow whatever the server puts in its tokens.

export type Identity = 'patient' | 'caregiver';

export type AuthChoice =
  | { kind: 'none' }
  /** A real token, written `${prefix}${token}${suffix}` into Authorization. */
  | { kind: 'real'; who: Identity; prefix: string; suffix: string }
  | { kind: 'forged'; header: string; label: string };

export type TokenFacts = {
  /** The server's signing secret: forgeries with the right key and wrong claims. */
  secret: string;
  /** A real token's claims. */
  claims: Record<string, unknown>;
  /** Real ids, for a sub that is an id but not the user's. */
  ids: string[];
};

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

function jwt(header: unknown, payload: unknown, key: string, hash = 'sha256'): string {
  const head = b64(typeof header === 'string' ? header : JSON.stringify(header));
  const body = b64(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const signature = createHmac(hash, key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

const now = () => Math.floor(Date.now() / 1000);

function forged(facts: TokenFacts): fc.Arbitrary<{ token: string; label: string }> {
  const { secret, claims } = facts;
  const fresh = () => ({ ...claims, iat: now(), exp: now() + 3600 });
  const claimKeys = Object.keys(claims);
  const strangeValues: unknown[] = [
    null,
    0,
    -1,
    1e21,
    '',
    'not-an-id',
    "1' or '1'='1",
    '\u0000',
    '\uD800',
    'x'.repeat(10_000),
    [],
    {},
    true,
    '00000000-0000-0000-0000-000000000000',
    ...facts.ids.slice(0, 4),
  ];
  const withSecret = (payload: unknown, label: string) => ({
    token: jwt({ alg: 'HS256', typ: 'JWT' }, payload, secret),
    label,
  });
  return fc.oneof(
    fc.constantFrom(
      {
        token: jwt({ alg: 'none', typ: 'JWT' }, fresh(), secret).replace(/[^.]+$/, ''),
        label: 'alg none, no signature',
      },
      { token: jwt({ alg: 'None' }, fresh(), secret).replace(/[^.]+$/, ''), label: 'alg None, no signature' },
      { token: jwt({ alg: 'none' }, fresh(), secret), label: 'alg none with a signature' },
      {
        token: jwt({ alg: 'HS256', typ: 'JWT' }, fresh(), 'another-secret-that-is-long-enough-for-hs256'),
        label: 'signed with another secret',
      },
      {
        token: jwt({ alg: 'HS512', typ: 'JWT' }, fresh(), secret, 'sha512'),
        label: 'HS512 with the real secret',
      },
      { token: jwt({ alg: 'RS256', typ: 'JWT' }, fresh(), secret), label: 'RS256 header, HMAC signature' },
      {
        token: jwt({ alg: 'HS256', kid: '../../../../dev/null' }, fresh(), ''),
        label: 'kid path, empty key',
      },
      withSecret({ ...claims, iat: now() - 7200, exp: now() - 3600 }, 'expired'),
      withSecret({ ...claims, iat: now(), exp: now() + 3600, nbf: now() + 3600 }, 'not valid yet (nbf)'),
      withSecret({ ...claims, iat: now() + 86_400, exp: now() + 90_000 }, 'issued in the future'),
      withSecret({ ...claims, exp: 'never' }, 'exp is a string'),
      withSecret({ ...claims, exp: 1e20 }, 'exp far away'),
      withSecret('null', 'claims are null'),
      withSecret('[1,2,3]', 'claims are an array'),
      withSecret('not json', 'claims are not JSON'),
      withSecret({}, 'no claims at all'),
      { token: `${b64('{"alg":"HS256"')}.${b64('{}')}.sig`, label: 'header is broken JSON' },
    ),
    // Each real claim removed (tokens without exp, without sub...), then set to something strange.
    fc.constantFrom(...claimKeys, 'exp').map((key) => {
      const payload: Record<string, unknown> = { ...claims };
      delete payload[key];
      return withSecret(payload, `claim ${key} missing`);
    }),
    fc
      .tuple(fc.constantFrom(...claimKeys), fc.constantFrom(...strangeValues))
      .map(([key, value]) =>
        withSecret({ ...fresh(), [key]: value }, `claim ${key} = ${JSON.stringify(value)?.slice(0, 40)}`),
      ),
    fc.uuid().map((id) => withSecret({ ...fresh(), sub: id }, 'sub is an unknown id')),
  );
}

const smallGarbage = fc.oneof(
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'Bearer null',
    'Bearer undefined',
    'Bearer a.b.c',
    'Bearer ...',
    'Bearer ..',
    'Basic YWRtaW46YWRtaW4=',
    'Token abc',
    'Bearer eyJ',
  ),
  fc.string({ maxLength: 80 }).map((value) => `Bearer ${value}`),
  fc.string({ maxLength: 80 }),
  fc
    .tuple(
      fc.base64String({ maxLength: 40 }),
      fc.base64String({ maxLength: 80 }),
      fc.base64String({ maxLength: 40 }),
    )
    .map(([a, b, c]) => `Bearer ${a}.${b}.${c}`),
);

const garbage = fc.oneof(
  { weight: 20, arbitrary: smallGarbage },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100_000, max: 300_000 }).map((length) => `Bearer ${'A'.repeat(length)}`),
  },
);

/** Who a request claims to be, weighted so that half the requests get past the sign-in check. */
export function authArbitrary(facts: TokenFacts): fc.Arbitrary<AuthChoice> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .constantFrom<Identity>('patient', 'caregiver')
        .map((who): AuthChoice => ({ kind: 'real', who, prefix: 'Bearer ', suffix: '' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom<Identity>('patient', 'caregiver'),
          fc.constantFrom(
            ['bearer ', ''],
            ['Bearer  ', ''],
            ['Bearer ', ' '],
            ['Bearer ', 'x'],
            ['Bearer ', '.x'],
            ['', ''],
            ['Bearer ', ', Bearer x'],
          ),
        )
        .map(([who, [prefix = '', suffix = '']]): AuthChoice => ({ kind: 'real', who, prefix, suffix })),
    },
    { weight: 2, arbitrary: fc.constant<AuthChoice>({ kind: 'none' }) },
    {
      weight: 3,
      arbitrary: forged(facts).map(({ token, label }): AuthChoice => ({
        kind: 'forged',
        header: `Bearer ${token}`,
        label,
      })),
    },
    {
      weight: 1,
      arbitrary: garbage.map((header): AuthChoice => ({ kind: 'forged', header, label: 'garbage' })),
    },
  );
}

/** The claims of a JWT, without checking it: the template for forgeries. */
export function claimsOf(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  const parsed: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('a token without claims');
  return parsed as Record<string, unknown>;
}
