import { useEffect, useId, useState, useSyncExternalStore, type JSX } from 'react';
import { Download, Share } from 'lucide-react';
import {
  captureInstallPrompt,
  promptInstall,
  readInstallState,
  subscribeInstall,
  type InstallState,
} from '../../local/install';

// "Install app" where the browser offers it, the Share-menu hint on iPhone and iPad, nothing once the app
// runs installed. The place it sits in gives its colours (`className`: text and hover background), as the
// sidebar and the More sheet differ.

const serverState = (): InstallState => 'unavailable';

export function useInstallState(): InstallState {
  // main.tsx starts listening at page start; this covers a page that did not (tests, a future entry).
  useEffect(() => captureInstallPrompt(), []);
  return useSyncExternalStore(subscribeInstall, readInstallState, serverState);
}

export function InstallButton({ className = '' }: { className?: string } = {}): JSX.Element | null {
  const state = useInstallState();
  const [hintOpen, setHintOpen] = useState(false);
  // The sidebar and the More sheet may both hold one: each hint needs its own id.
  const hintId = useId();
  const base = `flex min-h-11 w-full items-center gap-3 rounded-control px-3 py-2 text-left text-base focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${className}`;

  if (state === 'prompt') {
    return (
      <button type="button" className={base} onClick={() => void promptInstall()}>
        <Download aria-hidden="true" className="size-5 shrink-0" />
        <span>Install app</span>
      </button>
    );
  }
  if (state === 'ios') {
    return (
      <div>
        <button
          type="button"
          className={base}
          aria-expanded={hintOpen}
          aria-controls={hintOpen ? hintId : undefined}
          onClick={() => setHintOpen((open) => !open)}
        >
          <Share aria-hidden="true" className="size-5 shrink-0" />
          <span>Add to Home Screen</span>
        </button>
        {hintOpen ? (
          <p id={hintId} className="px-3 pb-2 text-sm">
            In Safari, tap the Share button
            <Share aria-hidden="true" className="mx-1 inline size-4 align-text-bottom" />, then &ldquo;Add to
            Home Screen&rdquo;. Kincare then opens from your home screen like an app.
          </p>
        ) : null}
      </div>
    );
  }
  return null;
}
