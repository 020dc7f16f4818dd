import type { ReactNode } from 'react';

export function PageTitle({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold text-slate-900">{children}</h1>
      {description ? <p className="mt-1 text-slate-700">{description}</p> : null}
    </div>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 ${className}`}>
      {children}
    </section>
  );
}

/** The fallback text while screens load (SPEC section 2). */
export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-lg text-slate-700">
      Checking your health data...
    </div>
  );
}
