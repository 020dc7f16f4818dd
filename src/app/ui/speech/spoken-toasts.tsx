import { isValidElement, useEffect, useRef, type ReactNode } from 'react';
import { useToasterStore, type Renderable, type ValueOrFunction, type Toast } from 'react-hot-toast';
import { speak } from '../../../local/speech';

// Read-aloud of toasts: with speech enabled, each toast's text is read aloud. Every error,
// success or plain toast shown by any screen passes through react-hot-toast's one store, so reading from
// there covers them all, wherever they were raised. Rendered beside the Toaster (shell/toasts.tsx), which
// loads after the first paint: speech adds nothing to a first screen.

/** The words of a toast's message: a string, or the text inside an element (a link's words included). */
export function textOfNode(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOfNode).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOfNode(node.props.children);
  return '';
}

function textOfMessage(message: ValueOrFunction<Renderable, Toast>): string {
  return typeof message === 'function' ? '' : textOfNode(message).replace(/\s+/g, ' ').trim();
}

const SPOKEN_TYPES: ReadonlySet<Toast['type']> = new Set(['success', 'error', 'blank']);

export function SpokenToasts() {
  const { toasts } = useToasterStore();
  // A toast shown again under the same id gets a new createdAt: it is read again.
  const spoken = useRef(new Set<string>());
  useEffect(() => {
    for (const toast of toasts) {
      const key = `${toast.id}:${toast.createdAt}`;
      if (!toast.visible || !SPOKEN_TYPES.has(toast.type) || spoken.current.has(key)) continue;
      spoken.current.add(key);
      speak(textOfMessage(toast.message));
    }
  }, [toasts]);
  return null;
}
