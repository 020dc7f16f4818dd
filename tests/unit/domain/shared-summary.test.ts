import { describe, expect, it } from 'vitest';
import { patientSummary } from '../../../src/domain/patient-summary';
import { narrativeLines, readSharedSummary } from '../../../src/domain/shared-summary';
import { summaryInput } from '../../fixtures/summary-records';

// What the share link's viewer shows of a summary: its sections' lines as text, a lab report's rows under
// it, nothing of the document taken as markup.

describe('a shared summary, read back', () => {
  it('has the patient, when it was made, and every section in words', async () => {
    const shown = readSharedSummary(await patientSummary(summaryInput()));
    expect(shown).toMatchObject({
      patientName: 'Pat O’Brien',
      birthDate: '1958-03-14',
      madeAt: '2026-11-29T10:00:00.000Z',
      madeBy: null,
    });
    expect(shown?.sections.map(({ title }) => title)).toEqual([
      'Medications',
      'Allergies and Intolerances',
      'Problems',
      'Immunizations',
      'History of Procedures',
      'Results',
      'Vital Signs',
    ]);
    const section = (title: string) => shown?.sections.find((found) => found.title === title);
    // Typed text with markup characters comes back as the same text.
    expect(
      section('Medications')
        ?.items.map(({ text }) => text)
        .join('\n'),
    ).toContain('Amoxicillin <generic> & co');
    const results = section('Results')?.items ?? [];
    expect(results.length).toBeGreaterThan(0);
    const glucose = results.flatMap(({ details }) => details).find((row) => row.startsWith('Glucose'));
    expect(glucose).toBe('Glucose: 105 mg/dL; high; range 70-99');
  });

  it('names a caregiver who made it', async () => {
    const shown = readSharedSummary(
      await patientSummary(
        summaryInput({
          author: { kind: 'caregiver', id: 'c0ffee00-0000-4000-8000-0000000000aa', name: 'Cara Giver' },
        }),
      ),
    );
    expect(shown?.madeBy).toBe('Cara Giver');
  });

  it('is null for what is not a FHIR document', () => {
    expect(readSharedSummary(null)).toBeNull();
    expect(readSharedSummary({ resourceType: 'Patient' })).toBeNull();
    expect(
      readSharedSummary({ resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Patient' } }] }),
    ).toBeNull();
  });
});

describe("a narrative's lines", () => {
  it('are its list items, table rows or paragraphs, as text only', () => {
    expect(narrativeLines('<div><ul><li>One &amp; two</li><li>3 &lt; 4</li></ul></div>')).toEqual([
      'One & two',
      '3 < 4',
    ]);
    expect(
      narrativeLines('<div><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></div>'),
    ).toEqual(['A; B', '1; 2']);
    expect(narrativeLines('<div><p>Only this</p></div>')).toEqual(['Only this']);
    expect(narrativeLines('<div>Bare text</div>')).toEqual(['Bare text']);
    // Markup someone put in a document is not kept as markup: the viewer shows text.
    expect(
      narrativeLines('<div><p><img src=x onerror="alert(1)">Hi<script>alert(2)</script></p></div>'),
    ).toEqual(['Hi alert(2)']);
    expect(narrativeLines('<div><p>&#x1F600; &#0; &bogus;</p></div>')).toEqual(['😀 &#0; &bogus;']);
  });
});
