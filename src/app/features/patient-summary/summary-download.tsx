import { useState } from 'react';
import { FileHeart } from 'lucide-react';
import { hasUserDb, userDb } from '../../../local/db';
import { deviceSummary, summaryFile, SummaryError } from '../../../local/patient-summary';
import { Button } from '../../ui/button';
import { saveFile } from '../../ui/save-file';

// "Download health summary": the patient's records as a FHIR patient summary file (src/domain/README.md,
// "Taking records to the doctor"), made on this device from what it holds, so it works with no signal.
// The file goes wherever the browser saves downloads; a doctor's system reads it.

type State =
  { at: 'idle' } | { at: 'making' } | { at: 'saved'; file: string } | { at: 'failed'; message: string };

const FAILED = 'The summary could not be made on this device. Nothing was changed; please try again.';

export function SummaryDownload({ patientId }: { patientId: string | null }) {
  const [state, setState] = useState<State>({ at: 'idle' });
  async function download() {
    if (!patientId || !hasUserDb()) return;
    setState({ at: 'making' });
    try {
      const file = summaryFile(await deviceSummary(userDb(), patientId));
      saveFile(file);
      setState({ at: 'saved', file: file.name });
    } catch (error) {
      setState({ at: 'failed', message: error instanceof SummaryError ? error.message : FAILED });
    }
  }
  return (
    <div className="flex flex-col gap-1">
      <Button
        variant="secondary"
        onClick={() => void download()}
        disabled={!patientId || state.at === 'making'}
        aria-describedby="summary-download-help"
      >
        <FileHeart aria-hidden="true" className="h-5 w-5" />
        Download health summary
      </Button>
      <p id="summary-download-help" className="max-w-prose text-sm text-muted">
        A standard file (FHIR patient summary) a doctor&apos;s system can read: medicines, allergies,
        conditions, results and vitals. Made on this device, so it works offline.
      </p>
      <p role="status" className="text-sm text-text">
        {state.at === 'making' ? 'Making your summary…' : state.at === 'saved' ? `Saved ${state.file}.` : ''}
      </p>
      {state.at === 'failed' ? (
        <p role="alert" className="text-sm text-danger">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
