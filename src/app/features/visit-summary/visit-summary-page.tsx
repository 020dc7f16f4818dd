import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Download, Share2 } from 'lucide-react';
import { visitSummaryFileName, type VisitSummary } from '../../../domain/visit-summary';
import { hasUserDb, userDb } from '../../../local/db';
import { visitSummaryOf } from '../../../local/visit-summary';
import { Button } from '../../ui/button';
import { saveFile } from '../../ui/save-file';
import { Card, PageTitle } from '../../ui/page';

// /visit-summary: what to hand a doctor at a visit (domain/visit-summary.ts), shown here as it will print,
// and made into a PDF on the device (local/visit-summary-pdf.ts) to save, print or share through the
// phone's share sheet where the browser has one. Everything is read from this device, so it works
// offline.

type State =
  { at: 'idle' } | { at: 'making' } | { at: 'done'; message: string } | { at: 'failed'; message: string };

const FAILED = 'The PDF could not be made on this device. Nothing was changed; please try again.';

/** The PDF maker and pdf-lib: fetched as the screen opens, so a PDF is made offline too (see below). */
const loadPdfMaker = () => import('../../../local/visit-summary-pdf');

async function pdfFile(summary: VisitSummary): Promise<File> {
  const { visitSummaryPdf } = await loadPdfMaker();
  const now = new Date();
  return new File([await visitSummaryPdf(summary)], visitSummaryFileName(summary.name, now), {
    type: 'application/pdf',
  });
}

/** Whether this browser can hand a PDF to the system's share sheet. */
function canShareFiles(): boolean {
  if (typeof navigator.canShare !== 'function') return false;
  try {
    return navigator.canShare({ files: [new File([''], 'x.pdf', { type: 'application/pdf' })] });
  } catch {
    return false;
  }
}

export function VisitSummaryPage({ patientId }: { patientId: string | null }) {
  const summary = useLiveQuery(
    async () => (patientId && hasUserDb() ? visitSummaryOf(userDb(), patientId) : null),
    [patientId],
  );
  const [state, setState] = useState<State>({ at: 'idle' });
  const [sharing] = useState(canShareFiles);
  // Fetched now, while the screen has a signal: a tap on Download after it is lost still makes the PDF
  // (without the service worker's copy, a module first asked for offline cannot load).
  useEffect(() => {
    void loadPdfMaker()
      .then((maker) => maker.loadPdfLib())
      .catch(() => undefined);
  }, []);

  async function make(then: 'save' | 'share') {
    if (!summary) return;
    setState({ at: 'making' });
    try {
      const file = await pdfFile(summary);
      if (then === 'share') {
        try {
          await navigator.share({ files: [file], title: 'Visit summary' });
          setState({ at: 'done', message: 'Shared.' });
        } catch (error) {
          // Closing the share sheet is not a failure.
          if ((error as { name?: string }).name === 'AbortError') setState({ at: 'idle' });
          else throw error;
        }
        return;
      }
      saveFile(file);
      setState({ at: 'done', message: `Saved ${file.name}.` });
    } catch {
      setState({ at: 'failed', message: FAILED });
    }
  }

  return (
    <>
      <PageTitle description="For your next doctor's visit: print it or share it. Made on this device, so it works offline.">
        Visit summary
      </PageTitle>
      {summary === undefined ? (
        <p role="status" className="text-muted">
          Checking your health data...
        </p>
      ) : summary === null ? (
        <p className="text-muted">A visit summary is made from your own records.</p>
      ) : (
        <>
          <div className="mb-4 flex flex-wrap gap-3">
            <Button onClick={() => void make('save')} disabled={state.at === 'making'}>
              <Download aria-hidden="true" className="h-5 w-5" />
              Download PDF
            </Button>
            {sharing ? (
              <Button variant="secondary" onClick={() => void make('share')} disabled={state.at === 'making'}>
                <Share2 aria-hidden="true" className="h-5 w-5" />
                Share PDF
              </Button>
            ) : null}
          </div>
          <p role="status" className="mb-2 text-sm text-text">
            {state.at === 'making' ? 'Making your PDF…' : state.at === 'done' ? state.message : ''}
          </p>
          {state.at === 'failed' ? (
            <p role="alert" className="mb-2 text-sm text-danger">
              {state.message}
            </p>
          ) : null}
          <Card padding="page" aria-label="What the PDF holds">
            <p className="text-xl font-bold text-text">{summary.name}</p>
            {summary.details.map((detail) => (
              <p key={detail} className="text-muted">
                {detail}
              </p>
            ))}
            <p className="text-sm text-muted">{summary.made}</p>
            {summary.sections.map((section) => (
              <section key={section.title} className="mt-5">
                <h2 className="text-lg font-semibold text-text">{section.title}</h2>
                {section.lines.length === 0 ? (
                  <p className="mt-1 text-muted">{section.empty}</p>
                ) : (
                  <ul className="mt-1 list-disc space-y-1 pl-5">
                    {section.lines.map((line, index) => (
                      <li key={`${index}-${line.text}`} className={line.flagged ? 'font-semibold' : ''}>
                        {line.text}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            ))}
          </Card>
        </>
      )}
    </>
  );
}
