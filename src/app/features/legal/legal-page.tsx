import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';

/** The frame of the public legal pages (no sign-in needed). */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold text-slate-900">{title}</h1>
      <div className="space-y-4 text-slate-800">{children}</div>
      <p className="mt-8">
        <Link to="/" className="font-semibold text-brand-800 underline">
          Back to Kincare
        </Link>
      </p>
    </main>
  );
}
