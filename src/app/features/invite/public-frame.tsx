import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Card } from '../../ui/card';

// The frame of the invitation pages (public, outside the signed-in shell): a centred card, as /login has.

export const primaryLinkClass =
  'inline-flex min-h-11 items-center justify-center rounded-control bg-primary px-4 py-2 font-semibold text-primary-on hover:bg-primary-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface';

export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-10">
      <Card as="div" padding="frame" className="w-full max-w-lg min-w-0">
        <h1 className="mb-4 text-title">{title}</h1>
        {children}
      </Card>
    </main>
  );
}

/** A link that failed: the reason, and the way to sign in instead. */
export function DeadLink({ message, linkLabel }: { message: string; linkLabel: string }) {
  return (
    <>
      <p role="alert" className="text-danger-strong">
        {message}
      </p>
      <Link to="/login" className={`mt-4 ${primaryLinkClass}`}>
        {linkLabel}
      </Link>
    </>
  );
}
