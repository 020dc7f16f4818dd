import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

// What the server writes to its log. A health app's log is read by operators and shipped to log stores
// that are not meant for health data, so nothing a person typed or a secret that opens an account may
// reach it. Three layers, each of which would be enough for what it covers:
// - requests are logged as method, path (never the query string: signed file links, e-mails of
//   user-info, page tokens), address and status; no headers, so no Authorization and no cookies;
// - errors are logged as a summary: their class, database code and statement, and the stack's frames,
//   never a database driver's parameters or details (drizzle puts every SQL parameter in its message:
//   notes, e-mails, password hashes) nor a quoted value from a message;
// - every finished line is scrubbed of what looks like an e-mail, a token, a password hash or a query
//   string, in case some future log call names one.

/** What stands for a removed value, so a reader sees that something was there. */
const REDACTED = '[redacted]';

const SCRUBBERS: [RegExp, string][] = [
  // JSON Web Tokens, and any long base64url run that starts like one.
  [/eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,2}/g, '[token]'],
  [/\bBearer\s+[^\s"\\,]+/gi, '[authorization]'],
  [/\$argon2(?:id|i|d)\$[^\s"\\]*/g, '[password-hash]'],
  // Every pattern starts its matches only where a match can begin (the lookbehinds), so a long run of
  // letters or slashes costs one pass, not one pass per character: a 20 kB request path once took seconds.
  [/(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, '[email]'],
  // The token of a page link in a path (/verify-email/<token>, /invite/register/<token>, /onboarding/<token>,
  // /api/auth/invite/<token>): whoever reads the log must not be able to open the link.
  [/(\/(?:verify-email|invite\/register|onboarding|auth\/invite))\/[A-Za-z0-9_-]{16,}/g, `$1/${REDACTED}`],
  // A query string after a path: signed links carry their signature there, user-info its e-mail.
  // (The lookbehind comes after the '?', so it runs only at question marks.)
  [/\?(?<=\/[^\s"\\?#]*\?)[^\s"\\#]*/g, '?[query]'],
  // A signature or token parameter that is not after a path (a query string logged on its own).
  [
    /\b(signature|expires|token|reset_token|resetToken|code|otp|email|password)=[^&\s"\\]*/gi,
    `$1=${REDACTED}`,
  ],
];

/** Removes e-mails, tokens, password hashes and query strings from a piece of text. */
export function scrubText(text: string): string {
  let scrubbed = text;
  for (const [pattern, replacement] of SCRUBBERS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}

/** Longer request paths are cut in the log: nothing a reader needs is that long. */
const MAX_LOGGED_PATH = 512;

/** The path of a request URL, without its query string, cut to a readable length, scrubbed. */
export function pathOf(url: string): string {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  return scrubText(path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path);
}

const QUOTED = /"[^"]*"|'[^']*'|`[^`]*`/g;
const MAX_MESSAGE = 300;
const MAX_CAUSES = 3;

/** A message with quoted values removed ('invalid input syntax for type uuid: "<the input>"'). */
function safeMessage(message: string): string {
  const firstLine = message.split('\n')[0] ?? '';
  // A driver's message past "params:" is all values; drizzle's first line is "Failed query: <sql>".
  const text = firstLine.replace(QUOTED, '"…"');
  return scrubText(text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);
}

/** The SQL text of a failed drizzle query: placeholders ($1) only, never the values. */
function statementOf(error: Error): string | undefined {
  if ('query' in error && typeof error.query === 'string') {
    const sql = error.query.replace(QUOTED, (quoted) => (quoted.startsWith('"') ? quoted : "'…'"));
    return sql.length > 2000 ? `${sql.slice(0, 2000)}…` : sql;
  }
  return undefined;
}

/** The frames of a stack ("    at …"), without its first line, which repeats the message. */
function framesOf(error: Error): string | undefined {
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => scrubText(line));
  return frames.length > 0 ? frames.join('\n') : undefined;
}

/** Fields of a Postgres error (pg and PGlite) that name where it happened, never the values involved. */
const SAFE_DATABASE_FIELDS = ['severity', 'routine', 'schema', 'table', 'column', 'constraint'] as const;

export type ErrorSummary = {
  type: string;
  message: string;
  code?: string;
  statusCode?: number;
  statement?: string;
  database?: Partial<Record<(typeof SAFE_DATABASE_FIELDS)[number], string>>;
  stack?: string;
  cause?: ErrorSummary;
};

function stringField(value: object, field: string): string | undefined {
  const found: unknown = (value as Record<string, unknown>)[field];
  return typeof found === 'string' && found.length <= 200
    ? scrubText(found.replace(QUOTED, '"…"'))
    : undefined;
}

/**
 * An error as it may be logged: class, message without values, error code, SQL statement without its
 * parameters, database location fields, stack frames, and the same for its causes.
 */
export function summarizeError(error: unknown, depth = 0): ErrorSummary {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: error === undefined || error === null ? String(error) : REDACTED };
  }
  const isDrizzleQuery = statementOf(error) !== undefined && error.message.startsWith('Failed query');
  const summary: ErrorSummary = {
    type: error.constructor.name || error.name,
    message: isDrizzleQuery ? 'Failed query' : safeMessage(error.message),
  };
  const code = stringField(error, 'code');
  if (code) summary.code = code;
  const statusCode: unknown = (error as { statusCode?: unknown }).statusCode;
  if (typeof statusCode === 'number') summary.statusCode = statusCode;
  const statement = statementOf(error);
  if (statement) summary.statement = statement;
  const database: ErrorSummary['database'] = {};
  for (const field of SAFE_DATABASE_FIELDS) {
    const value = stringField(error, field);
    if (value) database[field] = value;
  }
  if (Object.keys(database).length > 0) summary.database = database;
  const stack = framesOf(error);
  if (stack) summary.stack = stack;
  if (error.cause !== undefined && depth < MAX_CAUSES) summary.cause = summarizeError(error.cause, depth + 1);
  return summary;
}

/** The request as logged: no headers, no query string, no body. */
function requestSummary(request: FastifyRequest) {
  return {
    method: request.method,
    url: pathOf(request.url),
    remoteAddress: request.ip,
  };
}

/** A Fastify `logger` option: the level, the serializers above and an optional destination. */
export function loggerOptions(
  level: string,
  destination?: NodeJS.WritableStream,
): LoggerOptions & { stream: { write: (line: string) => void } } {
  const target = destination ?? process.stdout;
  return {
    level,
    serializers: {
      req: requestSummary,
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      err: summarizeError,
    },
    // Belt and braces for a log call that passes a whole request or its headers.
    redact: {
      paths: [
        'headers.authorization',
        'headers.cookie',
        'req.headers.authorization',
        'req.headers.cookie',
        'request.headers',
        // @fastify/multipart logs the request's headers at trace level when it starts parsing a form.
        'busboyOptions.headers',
        '*.headers.authorization',
        '*.headers.cookie',
        'body',
        'req.body',
        'request.body',
      ],
      censor: REDACTED,
    },
    formatters: {
      // An error logged under any other name than `err` (which the serializer above summarises) would be
      // written with JSON.stringify, which keeps drizzle's enumerable `params`: summarise those too.
      log: (object: Record<string, unknown>) => {
        let copy: Record<string, unknown> | undefined;
        for (const [key, value] of Object.entries(object)) {
          if (value instanceof Error && key !== 'err') {
            copy ??= { ...object };
            copy[key] = summarizeError(value);
          }
        }
        return copy ?? object;
      },
    },
    hooks: {
      // `log.error(error)` makes the error's raw message the line's message: use the safe one.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        if (first instanceof Error) {
          const message = typeof rest[0] === 'string' ? rest[0] : summarizeError(first).message;
          return method.apply(this, [{ err: first }, scrubText(message)]);
        }
        return method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as never,
        );
      },
    },
    stream: { write: (line: string) => void target.write(scrubText(line)) },
  };
}
