// The fallback text while screens load. A module of its own: the app's entry shows it
// before anything else, and the entry's size is every page's first load (tests/build/budget.mjs).
export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-lg text-muted">
      Checking your health data...
    </div>
  );
}
