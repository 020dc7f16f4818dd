import { useEffect, useRef, useState } from 'react';
import type * as PdfJsModule from 'pdfjs-dist';

// A PDF drawn page by page onto canvases with pdf.js. pdf.js (some 400 kB) and its worker are loaded only
// when a PDF preview opens, never with the screen; the worker is a file of the build (precached by the
// service worker), so a report still on the device previews offline. No eval (isEvalSupported: false):
// the page's CSP allows no 'unsafe-eval'.

/** The bytes of a PDF on the device, or a link to one (a signed link of the server). */
export type PdfSource = { data: ArrayBuffer } | { url: string };

/** A long report is shown up to this many pages; the rest are named, not drawn (a phone's memory). */
const MAX_PAGES = 20;

type PdfJs = typeof PdfJsModule;
let loading: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')])
    .then(([pdfjs, worker]) => {
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      return pdfjs;
    })
    .catch((error: unknown) => {
      loading = null; // a failed load (offline before the files were cached) is tried again next time
      throw error;
    });
  return loading;
}

export function PdfViewer({ source, title }: { source: PdfSource; title: string }) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [result, setResult] = useState<{
    for: PdfSource;
    state: { phase: 'shown'; pages: number; drawn: number } | { phase: 'failed' };
  } | null>(null);
  // Until this source is drawn (or fails), it is loading.
  const state = result?.for === source ? result.state : { phase: 'loading' as const };

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    const container = pagesRef.current;
    void (async () => {
      try {
        const pdfjs = await loadPdfJs();
        // pdf.js takes ownership of (detaches) the bytes it is given: it gets a copy.
        const task = pdfjs.getDocument({
          ...('data' in source ? { data: new Uint8Array(source.data.slice(0)) } : { url: source.url }),
          isEvalSupported: false,
        });
        destroy = () => void task.destroy();
        const pdf = await task.promise;
        if (cancelled || !container) return;
        container.replaceChildren();
        const drawn = Math.min(pdf.numPages, MAX_PAGES);
        const width = Math.max(container.clientWidth, 280);
        for (let number = 1; number <= drawn; number += 1) {
          const page = await pdf.getPage(number);
          if (cancelled) return;
          const base = page.getViewport({ scale: 1 });
          const scale = width / base.width;
          const ratio = Math.min(window.devicePixelRatio || 1, 2);
          const viewport = page.getViewport({ scale: scale * ratio });
          const canvas = document.createElement('canvas');
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          canvas.style.width = '100%';
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', `${title}, page ${number} of ${pdf.numPages}`);
          canvas.className = 'mb-2 block bg-white shadow-card';
          container.append(canvas);
          await page.render({ canvas, viewport }).promise;
        }
        if (!cancelled) setResult({ for: source, state: { phase: 'shown', pages: pdf.numPages, drawn } });
      } catch {
        if (!cancelled) setResult({ for: source, state: { phase: 'failed' } });
      }
    })();
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [source, title]);

  return (
    <div data-testid="pdf-viewer">
      <div ref={pagesRef} />
      <p role="status" className="text-small text-muted">
        {state.phase === 'loading'
          ? 'Opening the PDF...'
          : state.phase === 'failed'
            ? 'This PDF could not be shown here.'
            : state.drawn < state.pages
              ? `Showing the first ${state.drawn} of ${state.pages} pages.`
              : state.pages === 1
                ? '1 page'
                : `${state.pages} pages`}
      </p>
    </div>
  );
}
