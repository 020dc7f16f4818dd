import type { ReactNode } from 'react';
import { Card } from './card';

// A page's title, and the kit's pieces pages import from here (the card and the empty states have files of
// their own: card.tsx, empty-state.tsx).
export { Card } from './card';
export { EmptyState, NoMatches } from './empty-state';

export function PageTitle({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-title text-text">{children}</h1>
      {description ? <p className="mt-1 text-muted">{description}</p> : null}
    </div>
  );
}

/** A page of a patient's records opened with no patient chosen (a caregiver's): its title, and what to do. */
export function NoPatientSelected({ title }: { title: string }) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <Card>
        <p>Please select patient.</p>
      </Card>
    </>
  );
}
