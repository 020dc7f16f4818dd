import { z } from 'zod';

// What the share link's viewer shows (README.md beside this file, "Taking records to the doctor"): a
// patient summary read back from its FHIR document as plain lines. The document comes from whoever made the
// link, so nothing of it is trusted as markup: each section's narrative is reduced to its text, line by line,
// and a lab report's rows are described from its Observations. Anything unreadable is skipped, never shown
// half-read.

export type SharedSection = {
  title: string;
  /** The section's lines; a lab report's line has its rows as details. */
  items: { text: string; details: string[] }[];
};

export type SharedSummary = {
  patientName: string;
  birthDate: string | null;
  /** When the summary was made (ISO 8601), as the document says. */
  madeAt: string | null;
  /** Who made it, when not the patient (a caregiver). */
  madeBy: string | null;
  sections: SharedSection[];
};

const codeable = z.looseObject({ text: z.string().optional() }).optional();
const resourceSchema = z.looseObject({ resourceType: z.string(), id: z.string().optional() });
const bundleSchema = z.looseObject({
  resourceType: z.literal('Bundle'),
  timestamp: z.string().optional(),
  entry: z.array(z.looseObject({ fullUrl: z.string().optional(), resource: resourceSchema })),
});
const compositionSchema = z.looseObject({
  resourceType: z.literal('Composition'),
  date: z.string().optional(),
  author: z.array(z.looseObject({ reference: z.string().optional() })).optional(),
  section: z
    .array(
      z.looseObject({
        title: z.string().optional(),
        text: z.looseObject({ div: z.string() }).optional(),
        entry: z.array(z.looseObject({ reference: z.string().optional() })).optional(),
      }),
    )
    .optional(),
});
const namedSchema = z.looseObject({
  name: z.array(z.looseObject({ text: z.string().optional(), family: z.string().optional() })).optional(),
  birthDate: z.string().optional(),
});
const reportSchema = z.looseObject({
  resourceType: z.literal('DiagnosticReport'),
  result: z.array(z.looseObject({ reference: z.string().optional() })).optional(),
});
const observationSchema = z.looseObject({
  resourceType: z.literal('Observation'),
  status: z.string().optional(),
  code: codeable,
  valueQuantity: z
    .looseObject({
      value: z.number().optional(),
      unit: z.string().optional(),
      comparator: z.string().optional(),
    })
    .optional(),
  valueString: z.string().optional(),
  interpretation: z
    .array(z.looseObject({ coding: z.array(z.looseObject({ code: z.string().optional() })).optional() }))
    .optional(),
  referenceRange: z.array(z.looseObject({ text: z.string().optional() })).optional(),
});

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of a piece of XHTML: tags dropped, entities read, spaces collapsed. */
function textOf(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return safeChar(parseInt(name.slice(2), 16), whole);
      if (name.startsWith('#')) return safeChar(parseInt(name.slice(1), 10), whole);
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function safeChar(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** A narrative's lines: its list items, else its table rows (cells joined by '; '), else its paragraphs, else its whole text. */
export function narrativeLines(div: string): string[] {
  const elements = (markup: string, tag: string) =>
    [...markup.matchAll(new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`, 'gi'))].map(([element]) => element);
  for (const tag of ['li', 'tr', 'p']) {
    const found = elements(div, tag)
      .map((element) =>
        tag === 'tr' ? elements(element, 't[dh]').map(textOf).filter(Boolean).join('; ') : textOf(element),
      )
      .filter(Boolean);
    if (found.length > 0) return found;
  }
  const whole = textOf(div);
  return whole ? [whole] : [];
}

const FLAG_WORDS: Record<string, string> = {
  H: 'high',
  HH: 'critically high',
  L: 'low',
  LL: 'critically low',
  A: 'abnormal',
};

/** A lab row as one line: 'LDL: 130 mg/dL; high; range <100'. */
function observationLine(observation: z.infer<typeof observationSchema>): string | null {
  const name = observation.code?.text;
  if (!name) return null;
  const quantity = observation.valueQuantity;
  const value =
    quantity?.value !== undefined
      ? `${quantity.comparator ?? ''}${quantity.value}${quantity.unit ? ` ${quantity.unit}` : ''}`
      : (observation.valueString ?? '');
  const flag = observation.interpretation?.[0]?.coding?.[0]?.code;
  const range = observation.referenceRange?.[0]?.text;
  return [
    `${name}: ${value}`.trim(),
    flag ? (FLAG_WORDS[flag] ?? '') : '',
    range ? `range ${range}` : '',
    observation.status === 'preliminary' ? 'not yet checked' : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The summary a share link held, or null when it is not a FHIR document Bundle with a Composition. */
export function readSharedSummary(document: unknown): SharedSummary | null {
  const bundle = bundleSchema.safeParse(document);
  if (!bundle.success) return null;
  const byUrl = new Map<string, z.infer<typeof resourceSchema>>();
  for (const { fullUrl, resource } of bundle.data.entry) if (fullUrl) byUrl.set(fullUrl, resource);
  const composition = compositionSchema.safeParse(bundle.data.entry[0]?.resource);
  if (!composition.success) return null;
  const resolve = (reference: string | undefined) => (reference ? byUrl.get(reference) : undefined);

  const subject = bundle.data.entry.find(({ resource }) => resource.resourceType === 'Patient')?.resource;
  const patient = namedSchema.safeParse(subject);
  const nameOf = (named: z.infer<typeof namedSchema>) =>
    named.name?.[0]?.text ?? named.name?.[0]?.family ?? '';
  const author = resolve(composition.data.author?.[0]?.reference);
  const authorNamed = author && author !== subject ? namedSchema.safeParse(author) : null;

  const sections = (composition.data.section ?? []).map((section): SharedSection => {
    const lines = narrativeLines(section.text?.div ?? '');
    const entries = (section.entry ?? []).map(({ reference }) => resolve(reference));
    return {
      title: section.title ?? 'Section',
      items: lines.map((text, index) => {
        const report = reportSchema.safeParse(entries.length === lines.length ? entries[index] : undefined);
        const details = report.success
          ? (report.data.result ?? []).flatMap(({ reference }) => {
              const row = observationSchema.safeParse(resolve(reference));
              const line = row.success ? observationLine(row.data) : null;
              return line ? [line] : [];
            })
          : [];
        return { text, details };
      }),
    };
  });
  return {
    patientName: patient.success ? nameOf(patient.data) : '',
    birthDate: patient.success ? (patient.data.birthDate ?? null) : null,
    madeAt: composition.data.date ?? bundle.data.timestamp ?? null,
    madeBy: authorNamed?.success ? nameOf(authorNamed.data) || null : null,
    sections,
  };
}
