import { RotateCw, WifiOff } from 'lucide-react';
import { LAB_REPORT_MESSAGES as MESSAGES } from '../../../domain/lab-reports';
import { Button } from '../../ui/button';
import type { UploadFlow } from './use-upload-flow';

// Where the upload flow stands, in the product's words and order: uploading (with a progress bar and its
// percent), analysing, then the request to review with a health tip. One live region says each step.

export function UploadProgress({ flow, onRetry }: { flow: UploadFlow; onRetry: () => void }) {
  return (
    <div data-testid="upload-status" aria-live="polite" className="empty:hidden">
      {flow.phase === 'preparing' ? <p className="text-text">Preparing the file...</p> : null}
      {flow.phase === 'uploading' ? (
        <div>
          <p className="font-semibold text-text" data-testid="upload-message">
            {MESSAGES.uploading}
          </p>
          <div className="mt-2 flex items-center gap-3">
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={flow.percent}
              className="h-3 flex-1 overflow-hidden rounded-full bg-surface ring-1 ring-border"
            >
              <div className="h-full bg-primary transition-[width]" style={{ width: `${flow.percent}%` }} />
            </div>
            <span className="w-12 text-right text-small text-text tabular-nums">{flow.percent}%</span>
          </div>
        </div>
      ) : null}
      {flow.phase === 'processing' ? (
        <p className="font-semibold text-text" data-testid="upload-message">
          {MESSAGES.analyzing}
        </p>
      ) : null}
      {flow.phase === 'completed' ? (
        <div>
          <p className="font-semibold text-text" data-testid="upload-message">
            {MESSAGES.review}
          </p>
          <p className="mt-1 text-small text-muted" data-testid="health-tip">
            {flow.tip}
          </p>
        </div>
      ) : null}
      {flow.phase === 'offline' ? (
        <p className="flex items-start gap-2 text-text" data-testid="upload-message">
          <WifiOff aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
          {MESSAGES.extractionOffline}
        </p>
      ) : null}
      {flow.phase === 'failed' ? (
        <div className="flex flex-col items-start gap-2">
          <p role="alert" className="text-danger">
            {flow.message}
          </p>
          {flow.step === 'read' ? (
            <p className="text-small text-muted">
              The file is uploaded: you can fill in the report below, or try reading it again.
            </p>
          ) : null}
          <Button variant="secondary" onClick={onRetry}>
            <RotateCw aria-hidden="true" className="h-5 w-5" />
            Try again
          </Button>
        </div>
      ) : null}
    </div>
  );
}
