import type { ReactNode } from 'react';
import { Button } from '../button';
import { CardList, type ItemAttributes } from '../data-list';
import { EmptyState } from '../empty-state';

// "My doctors", "My pharmacies": the providers the patient keeps, read from the device (offline too). An
// empty list says what goes here and, for who may search, leads to the search; each entry is a card
// whose content and buttons are the screen's.

type Props<Entry> = {
  title: string;
  /** The heading's id: the list is named by it, and focus goes to it when the last entry is removed. */
  headingId: string;
  /** Undefined while the first read runs: nothing shows rather than a flash of the empty state. */
  entries: Entry[] | undefined;
  keyOf: (entry: Entry) => string;
  itemAttributes?: (entry: Entry) => ItemAttributes;
  /** The layout inside each card. */
  cardClassName?: string;
  empty: { icon: ReactNode; title: string; text: string };
  /** The empty list's way to the search ('Find a doctor'), or null for who may not search. */
  find: { label: string; onFind: () => void } | null;
  focusKey: string | null;
  onFocused: () => void;
  children: (entry: Entry) => ReactNode;
};

export function MyEntries<Entry>({
  title,
  headingId,
  entries,
  keyOf,
  itemAttributes,
  cardClassName,
  empty,
  find,
  focusKey,
  onFocused,
  children,
}: Props<Entry>) {
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} tabIndex={-1} className="mb-3 text-heading text-text focus:outline-none">
        {title}
      </h2>
      {entries === undefined ? null : entries.length === 0 ? (
        <EmptyState
          icon={empty.icon}
          title={empty.title}
          action={
            find ? (
              <Button variant="secondary" onClick={find.onFind}>
                {find.label}
              </Button>
            ) : null
          }
        >
          {empty.text}
        </EmptyState>
      ) : (
        <CardList
          items={entries}
          keyOf={keyOf}
          labelledBy={headingId}
          itemAttributes={itemAttributes}
          cardClassName={cardClassName}
          focusKey={focusKey}
          onFocused={onFocused}
        >
          {children}
        </CardList>
      )}
    </section>
  );
}
