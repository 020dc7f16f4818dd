import type { Toast } from './toast-types';

// A toast from code that is part of a first screen (the app's entry, the sign-in form, the signed-in
// shell): react-hot-toast loads with the first toast, or right after the first paint when the root mounts
// its Toaster (routes/__root.tsx), not before the first screen, whose JavaScript has a budget
// (tests/build/budget.mjs). Toasts shown before the Toaster is there wait in its store and then show.
export function toastLater(show: (toast: Toast) => void): void {
  void import('react-hot-toast').then((module) => show(module.default));
}
