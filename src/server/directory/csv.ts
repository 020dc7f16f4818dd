// A streaming CSV reader (RFC 4180) for the NPPES file: about 9 GB and 9 million rows, so it is read one
// chunk at a time and only the record being read is held.
//
// What it accepts: fields quoted or not; inside quotes, "" for a quote and any commas, CR or LF; records
// ended by CRLF, LF or a lone CR; a byte order mark at the start; a last record with or without a line
// ending. Blank lines (nothing at all between two line endings) are not records and are passed over.
//
// What it does with a broken record: it does not throw. A record whose closing quote is followed by
// something other than a comma or line ending (`"ab"c`), or whose quote is still open at the end of the
// input, is yielded with `malformed` saying why, so a caller counts it and goes on. The one fatal case
// is a record longer than `maxRecordChars`: that is almost always an open quote swallowing the rest of
// a large file, and reading on would hold the whole file in memory.

export type CsvRecord = {
  /** The line of the input where the record starts (1 for the first), counting line endings in quotes. */
  line: number;
  fields: string[];
  /** Set when the record is broken: why. Its fields are then what could be read. */
  malformed?: string;
};

export type CsvOptions = {
  /** The longest record allowed, in characters (default 1,000,000: a real NPPES row is under 5,000). */
  maxRecordChars?: number;
};

export class CsvError extends Error {}

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const BOM = 0xfeff;

// Where the reader is within the record.
const FIELD_START = 0; // at the start of a field: a quote here opens a quoted field
const UNQUOTED = 1; // inside a field without quotes
const QUOTED = 2; // inside quotes
const QUOTE_IN_QUOTED = 3; // just read a quote inside quotes: "" or the closing quote
const AFTER_CR = 4; // a record ended with CR: a LF right after belongs to it

export async function* readCsvRecords(
  input: AsyncIterable<string | Buffer>,
  options: CsvOptions = {},
): AsyncGenerator<CsvRecord> {
  const maxRecordChars = options.maxRecordChars ?? 1_000_000;
  // Decodes UTF-8 across chunk boundaries (a character may be split between two Buffers).
  const decoder = new TextDecoder('utf-8');
  let atInputStart = true;
  let state = FIELD_START;
  let fields: string[] = [];
  let field = '';
  let recordChars = 0;
  let line = 1; // the line the reader is on
  let recordLine = 1; // the line the current record started on
  let recordStarted = false; // anything read since the record began (a blank line reads nothing)
  let malformed: string | undefined;

  const grow = (added: number) => {
    recordChars += added;
    if (recordChars > maxRecordChars) {
      throw new CsvError(
        `Line ${recordLine}: the record is longer than ${maxRecordChars} characters (an unclosed quote?); stopped reading.`,
      );
    }
  };
  const endRecord = (): CsvRecord => {
    fields.push(field);
    const record: CsvRecord = malformed
      ? { line: recordLine, fields, malformed }
      : { line: recordLine, fields };
    fields = [];
    field = '';
    recordChars = 0;
    recordStarted = false;
    malformed = undefined;
    return record;
  };
  const countLineEndings = (text: string, from: number, to: number) => {
    for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) line += 1;
  };

  const chunks = (async function* () {
    for await (const chunk of input) {
      yield typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    }
    yield decoder.decode(); // whatever bytes of a last character were held back
  })();

  for await (let text of chunks) {
    if (atInputStart && text.length > 0) {
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
      atInputStart = false;
    }
    const length = text.length;
    let at = 0;
    while (at < length) {
      if (state === AFTER_CR) {
        if (text.charCodeAt(at) === LF) at += 1;
        state = FIELD_START;
        continue;
      }
      if (state === QUOTED) {
        const quote = text.indexOf('"', at);
        const end = quote === -1 ? length : quote;
        grow(end - at);
        field += text.slice(at, end);
        countLineEndings(text, at, end);
        if (quote === -1) {
          at = length;
        } else {
          state = QUOTE_IN_QUOTED;
          at = quote + 1;
        }
        continue;
      }
      const code = text.charCodeAt(at);
      if (state === QUOTE_IN_QUOTED) {
        if (code === QUOTE) {
          grow(1);
          field += '"';
          state = QUOTED;
          at += 1;
          continue;
        }
        if (code !== COMMA && code !== LF && code !== CR) {
          // `"ab"c`: not RFC 4180. Keep reading the rest as plain text so the next record is found.
          malformed ??= 'text after a closing quote';
          state = UNQUOTED;
          continue;
        }
        state = UNQUOTED; // and the comma or line ending ends the field below
      }
      if (state === FIELD_START) {
        if ((code === LF || code === CR) && fields.length === 0) {
          // A line ending before anything of a record: a blank line, passed over.
          line += 1;
          recordLine = line;
          state = code === CR ? AFTER_CR : FIELD_START;
          at += 1;
          continue;
        }
        recordStarted = true;
        if (code === QUOTE) {
          state = QUOTED;
          at += 1;
          continue;
        }
        state = UNQUOTED;
      }
      // UNQUOTED: read up to the next comma or line ending.
      let end = at;
      let stop = -1;
      while (end < length) {
        stop = text.charCodeAt(end);
        if (stop === COMMA || stop === LF || stop === CR) break;
        end += 1;
      }
      if (end > at) {
        grow(end - at);
        // A quote inside an unquoted field (`ab"c`) is kept as text, as most writers mean it.
        field += text.slice(at, end);
      }
      if (end === length) {
        at = length; // the field goes on in the next chunk
        continue;
      }
      at = end + 1;
      if (stop === COMMA) {
        fields.push(field);
        field = '';
        state = FIELD_START;
        continue;
      }
      const record = endRecord();
      line += 1;
      recordLine = line;
      state = stop === CR ? AFTER_CR : FIELD_START;
      yield record;
    }
  }

  if (state === QUOTED) {
    malformed = `a quote opened on line ${recordLine} is not closed at the end of the input`;
    yield endRecord();
  } else if (recordStarted) {
    yield endRecord(); // the last record, without a line ending
  }
}
