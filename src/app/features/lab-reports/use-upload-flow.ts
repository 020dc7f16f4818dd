import { useCallback, useEffect, useRef, useState } from 'react';
import { LAB_REPORT_MESSAGES as MESSAGES, type LabReportOcrData } from '../../../domain/lab-reports';
import { resizeReportPhoto } from '../../../local/image-resize';
import { extractLabReport, LabUploadError, uploadReportFile } from '../../../local/lab-report-ocr';
import { isPdf } from './lab-report-format';
import { pickHealthTip, reportFileProblem } from './lab-report-form-values';

// The upload flow: idle, then uploading (with its percent), then processing (the server
// reads the report), then completed (the form is prefilled for review, with a health tip). Without a
// connection the file is kept for the save, and read once it is uploaded (readLater). A failure carries
// the product's words; a failed upload can be tried again, and a failed read leaves the form to fill in
// by hand with the file already uploaded.

export type UploadFlow =
  | { phase: 'idle' }
  | { phase: 'preparing' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'processing' }
  | { phase: 'completed'; tip: string }
  | { phase: 'offline' }
  | { phase: 'failed'; message: string; step: 'upload' | 'read' };

export function useUploadFlow({
  patientId,
  onExtracted,
}: {
  patientId: string;
  onExtracted: (data: LabReportOcrData) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [uploadedKey, setUploadedKey] = useState<string | null>(null);
  const [flow, setFlow] = useState<UploadFlow>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const extracted = useRef(onExtracted);
  useEffect(() => {
    extracted.current = onExtracted;
  }, [onExtracted]);

  // Leaving the form stops an upload or a read still under way.
  useEffect(() => () => controller.current?.abort(), []);

  const read = useCallback(
    async (key: string, signal: AbortSignal) => {
      setFlow({ phase: 'processing' });
      try {
        const data = await extractLabReport(key, { patientId, signal });
        if (signal.aborted) return;
        extracted.current(data);
        setFlow({ phase: 'completed', tip: pickHealthTip() });
      } catch (error) {
        if (signal.aborted) return;
        setFlow({ phase: 'failed', step: 'read', message: messageOf(error) });
      }
    },
    [patientId],
  );

  const send = useCallback(
    async (chosen: File) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      if (!navigator.onLine) {
        setFlow({ phase: 'offline' });
        return;
      }
      setFlow({ phase: 'uploading', percent: 0 });
      let key: string;
      try {
        key = await uploadReportFile(chosen, {
          patientId,
          signal: current.signal,
          onProgress: (percent) => {
            if (!current.signal.aborted) setFlow({ phase: 'uploading', percent });
          },
        });
      } catch (error) {
        if (current.signal.aborted) return;
        // The connection went while sending: the file is kept for the save, and read later.
        setFlow(
          navigator.onLine
            ? { phase: 'failed', step: 'upload', message: messageOf(error) }
            : { phase: 'offline' },
        );
        return;
      }
      if (current.signal.aborted) return;
      setUploadedKey(key);
      await read(key, current.signal);
    },
    [read, patientId],
  );

  /** A file was chosen (or the choice cleared): resize a photo, check it, and start. */
  const choose = useCallback(
    async (picked: File | undefined) => {
      controller.current?.abort();
      setUploadedKey(null);
      setFileError(null);
      if (!picked) {
        setFile(null);
        setFlow({ phase: 'idle' });
        return;
      }
      setFlow({ phase: 'preparing' });
      const ready = isPdf(picked) ? picked : await resizeReportPhoto(picked);
      const problem = reportFileProblem(ready);
      if (problem) {
        setFile(null);
        setFileError(problem);
        setFlow({ phase: 'idle' });
        return;
      }
      setFile(ready);
      await send(ready);
    },
    [send],
  );

  const retry = useCallback(() => {
    if (flow.phase !== 'failed') return;
    if (flow.step === 'read' && uploadedKey) {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      void read(uploadedKey, current.signal);
    } else if (file) void send(file);
  }, [flow, uploadedKey, file, read, send]);

  const reset = useCallback(() => {
    controller.current?.abort();
    setFile(null);
    setFileError(null);
    setUploadedKey(null);
    setFlow({ phase: 'idle' });
  }, []);

  const busy = flow.phase === 'preparing' || flow.phase === 'uploading' || flow.phase === 'processing';
  return { file, fileError, setFileError, uploadedKey, flow, busy, choose, retry, reset };
}

function messageOf(error: unknown): string {
  if (error instanceof LabUploadError) return error.message;
  return MESSAGES.uploadFailed;
}
