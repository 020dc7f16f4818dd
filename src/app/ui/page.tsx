import type { ReactNode } from 'react';

export function PageTitle({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-title text-text">{children}</h1>
      {description ? <p className="mt-1 text-muted">{description}</p> : null}
    </div>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <section
      className={`rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border sm:p-6 ${className}`}
    >
      {children}
    </section>
  );
}

/**
 * An empty list or card that says what to do next and links to it (the action is a real screen or form):
 * e.g. <EmptyState icon={<CalendarDays />} title="No upcoming appointments." action={<Link ...>Add one</Link>} />.
 */
export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-start gap-2 rounded-card border border-dashed border-border-strong bg-surface-muted p-4 text-text sm:p-6">
      {icon ? (
        <span aria-hidden="true" className="text-primary [&>svg]:h-7 [&>svg]:w-7">
          {icon}
        </span>
      ) : null}
      <p className="text-heading">{title}</p>
      {children ? <div className="text-muted">{children}</div> : null}
      {action ? <div className="mt-1">{action}</div> : null}
    </div>
  );
}
