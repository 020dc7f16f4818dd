import { Suspense, useEffect, useId, useMemo, useState } from 'react';
import { lazyPart } from '../../ui/lazy-part';
import { WifiOff } from 'lucide-react';
import type { LabReport } from '../../../domain/lab-reports';
import { BLOB_REFERENCE_PREFIX } from '../../../domain/sync';
import { hasUserDb, userDb } from '../../../local/db';
import { fileUrl } from '../../../local/files';
import { Button } from '../../ui/button';
import { Sheet } from '../../ui/sheet';
import { useOnline } from '../../ui/use-online';
import { isPdf, LAB_PREVIEW_HEIGHT_PX } from './lab-report-format';
import type { PdfSource } from './pdf-viewer';

// A report's file, seen: an image as an image, a PDF through pdf.js (loaded only when a PDF is shown), in a
// frame 500 px high. A file still only on this device shows offline; an uploaded one is
// fetched through a short-lived signed link, so offline it says plainly that it needs a connection.

const PdfViewer = lazyPart(
  () => import('./pdf-viewer').then((module) => module.PdfViewer),
  <p className="text-muted">
    The PDF viewer is not on this device yet: the file shows when you are back online.
  </p>,
);

/** What to show: a file just chosen in the form, or a saved report's file by its reference. */
export type ReportFileSource = { file: File } | { reference: string };

type Shown =
  | { phase: 'loading' }
  | { phase: 'image'; url: string; revoke: boolean }
  | { phase: 'pdf'; source: PdfSource }
  | { phase: 'offline' }
  | { phase: 'failed'; message: string };

export const NEEDS_CONNECTION = 'This file is kept on the server: showing it needs a connection.';

async function resolveSource(source: ReportFileSource, online: boolean): Promise<Shown> {
  if ('file' in source) {
    if (isPdf(source.file)) return { phase: 'pdf', source: { data: await source.file.arrayBuffer() } };
    return { phase: 'image', url: URL.createObjectURL(source.file), revoke: true };
  }
  const { reference } = source;
  if (reference.startsWith(BLOB_REFERENCE_PREFIX)) {
    // Still on this device: a PDF's bytes go to pdf.js directly (the page's CSP lets it fetch no blob: URL).
    const stored = hasUserDb()
      ? await userDb().blobs.get(reference.slice(BLOB_REFERENCE_PREFIX.length))
      : undefined;
    if (stored && isPdf({ type: stored.type || stored.blob.type, name: stored.name }))
      return { phase: 'pdf', source: { data: await stored.blob.arrayBuffer() } };
    return { phase: 'image', url: await fileUrl(reference), revoke: true };
  }
  if (!online) return { phase: 'offline' };
  const url = await fileUrl(reference);
  return reference.endsWith('.pdf')
    ? { phase: 'pdf', source: { url } }
    : { phase: 'image', url, revoke: false };
}

export function ReportFileView({ source, title }: { source: ReportFileSource; title: string }) {
  const labelId = useId();
  const online = useOnline();
  const [attempt, setAttempt] = useState(0);
  const needsNetwork = 'reference' in source && !source.reference.startsWith(BLOB_REFERENCE_PREFIX);
  // Coming back online retries an uploaded file that could not be fetched.
  const onlineKey = needsNetwork ? online : true;
  const [result, setResult] = useState<{ key: unknown[]; shown: Shown } | null>(null);
  const key = [source, onlineKey, attempt];
  // Until what is asked for now has been resolved, it is loading.
  const shown: Shown =
    result && result.key.every((part, index) => part === key[index]) ? result.shown : { phase: 'loading' };

  useEffect(() => {
    let cancelled = false;
    let made: string | null = null;
    const askedFor = [source, onlineKey, attempt];
    resolveSource(source, onlineKey).then(
      (next) => {
        if (next.phase === 'image' && next.revoke) made = next.url;
        if (cancelled) {
          if (made) URL.revokeObjectURL(made);
          return;
        }
        setResult({ key: askedFor, shown: next });
      },
      (error: unknown) => {
        if (!cancelled)
          setResult({
            key: askedFor,
            shown: {
              phase: 'failed',
              message:
                error instanceof Error && error.message ? error.message : 'The file could not be opened.',
            },
          });
      },
    );
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [source, onlineKey, attempt]);

  return (
    <div
      className="overflow-auto rounded-control bg-surface-muted p-2 ring-1 ring-border focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
      style={{ height: LAB_PREVIEW_HEIGHT_PX }}
      data-testid="report-file-frame"
      // The frame scrolls (a long PDF): keyboard users reach it to scroll it with the arrow keys.
      tabIndex={0}
      role="region"
      aria-labelledby={labelId}
    >
      <span id={labelId} className="sr-only">
        {title}
      </span>
      {shown.phase === 'loading' ? (
        <p role="status" className="p-2 text-muted">
          Opening the file...
        </p>
      ) : shown.phase === 'image' ? (
        <img src={shown.url} alt={title} className="mx-auto block max-w-full object-contain" />
      ) : shown.phase === 'pdf' ? (
        <Suspense
          fallback={
            <p role="status" className="p-2 text-muted">
              Opening the PDF...
            </p>
          }
        >
          <PdfViewer source={shown.source} title={title} />
        </Suspense>
      ) : shown.phase === 'offline' ? (
        <p role="status" className="flex items-start gap-2 p-2 text-text">
          <WifiOff aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
          {NEEDS_CONNECTION}
        </p>
      ) : (
        <div className="p-2">
          <p role="alert" className="mb-2 text-danger">
            {shown.message}
          </p>
          <Button variant="secondary" onClick={() => setAttempt((count) => count + 1)}>
            Try again
          </Button>
        </div>
      )}
    </div>
  );
}

/** The 'Lab Report Preview' modal of a saved report (open while `report` is set). */
export function LabReportPreviewDialog({
  report,
  name,
  onClose,
}: {
  report: LabReport | null;
  /** The report, in words (its type and date), for the file's description. */
  name: string;
  onClose: () => void;
}) {
  const reference = report?.attachment_key ?? null;
  const source = useMemo(() => (reference ? { reference } : null), [reference]);
  return (
    <Sheet
      open={report !== null}
      onClose={onClose}
      title="Lab Report Preview"
      data-testid="lab-report-preview"
    >
      <p className="mb-3 text-muted">{name}</p>
      {source ? (
        <ReportFileView source={source} title={name} />
      ) : (
        <p className="text-text">This report has no file.</p>
      )}
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Sheet>
  );
}
