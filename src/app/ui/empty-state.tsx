import type { ReactNode } from 'react';
import { SearchX } from 'lucide-react';
import { Button } from './button';
import { Card } from './card';

// What a list says when it has nothing to show: never a blank space. An empty list says what goes here
// and how to add it; a list its filters or a search emptied says so, and offers the way back.

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
    <Card as="div" variant="dashed" className="flex flex-col items-start gap-2">
      {icon ? (
        <span aria-hidden="true" className="text-primary [&>svg]:h-7 [&>svg]:w-7">
          {icon}
        </span>
      ) : null}
      <p className="text-heading">{title}</p>
      {children ? <div className="text-muted">{children}</div> : null}
      {action ? <div className="mt-1">{action}</div> : null}
    </Card>
  );
}

/**
 * Nothing matches the filters or the search: says so, with what to try (children), and, given `onClear`,
 * the Clear Filters button that brings the whole list back.
 */
export function NoMatches({
  title,
  children,
  onClear,
}: {
  title: string;
  children?: ReactNode;
  onClear?: () => void;
}) {
  return (
    <EmptyState
      icon={<SearchX />}
      title={title}
      action={
        onClear ? (
          <Button variant="secondary" onClick={onClear}>
            Clear Filters
          </Button>
        ) : null
      }
    >
      {children}
    </EmptyState>
  );
}
