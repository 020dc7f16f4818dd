import { Fragment, useEffect, useRef, type ReactNode } from 'react';
import { Card, cardClass } from './card';
import { useWideScreen } from './use-wide-screen';

// Lists of records. A CardList is cards on every screen (prescriptions, appointments, doctors); a DataList
// is a table from 768 px and the same content as cards on a phone (a table does not fit 390 px without
// scrolling sideways). Only the side that is seen is rendered (use-wide-screen.ts), so each action is in
// the page once. Either takes the focus to one item on request: the record just saved, or the neighbour
// of one just removed, so a keyboard or screen reader user hears where they are.

/** Data attributes an item carries for the screen's own code and its tests (data-prescription-id, ...). */
export type ItemAttributes = Record<`data-${string}`, string> & { 'aria-labelledby'?: string };

type Focusing = {
  /** The key of the item that takes the focus once shown; null for none. */
  focusKey?: string | null;
  /** Called once it has it (the screen then forgets the request). */
  onFocused?: () => void;
};

/**
 * Focuses the element a frame after `focus` turns true: by then a sheet that saved the record has given
 * focus back to what opened it as it closed, and a form that was in its place has gone.
 */
export function useFocusWhen<Element extends HTMLElement>(
  focus: boolean,
  onFocused: (() => void) | undefined,
) {
  const ref = useRef<Element | null>(null);
  useEffect(() => {
    if (!focus) return;
    const frame = requestAnimationFrame(() => {
      ref.current?.focus();
      onFocused?.();
    });
    return () => cancelAnimationFrame(frame);
  }, [focus, onFocused]);
  return ref;
}

/** A list is named by its heading's id (`labelledBy`) or, without a visible heading, by `label`. */
type Naming = { label?: string; labelledBy?: string };

export type CardListProps<Item> = Focusing &
  Naming & {
    items: readonly Item[];
    keyOf: (item: Item) => string;
    /** The card's content. */
    children: (item: Item) => ReactNode;
    itemAttributes?: (item: Item) => ItemAttributes;
    /** The list's layout ('space-y-3' by default; 'grid gap-3 lg:grid-cols-2' for two columns). */
    className?: string;
    /** The layout inside each card. */
    cardClassName?: string;
    cardPadding?: 'item' | 'tile';
  };

export function CardList<Item>({
  items,
  keyOf,
  children,
  itemAttributes,
  label,
  labelledBy,
  className = 'space-y-3',
  cardClassName = '',
  cardPadding = 'item',
  focusKey = null,
  onFocused,
}: CardListProps<Item>) {
  return (
    <ul className={className} aria-label={label} aria-labelledby={labelledBy}>
      {items.map((item) => {
        const key = keyOf(item);
        return (
          <ListCard
            key={key}
            focus={key === focusKey}
            onFocused={onFocused}
            attributes={itemAttributes?.(item)}
            className={cardClassName}
            padding={cardPadding}
          >
            {children(item)}
          </ListCard>
        );
      })}
    </ul>
  );
}

function ListCard({
  focus,
  onFocused,
  attributes,
  className,
  padding,
  children,
}: {
  focus: boolean;
  onFocused: (() => void) | undefined;
  attributes: ItemAttributes | undefined;
  className: string;
  padding: 'item' | 'tile';
  children: ReactNode;
}) {
  const ref = useFocusWhen<HTMLLIElement>(focus, onFocused);
  return (
    <Card as="li" ref={ref} padding={padding} focusable className={className} {...attributes}>
      {children}
    </Card>
  );
}

/** One fact of a card: the term as the table's header says it, and its value. */
export type CardFact = { term: string; value: ReactNode };

export type DataColumn<Item> = {
  /** The table's header; on a card, the term before the value. */
  header: string;
  cell: (item: Item) => ReactNode;
  /** Keeps a short value (a date) on one line in the table. */
  nowrap?: boolean;
  /**
   * How the column reads on a card, when not as `header: cell`: the facts it shows (a cell that holds two,
   * such as a type with its date under it, gives both) and what shows under the facts (a status).
   */
  card?: (item: Item) => { facts?: readonly CardFact[]; after?: ReactNode };
};

export type DataListProps<Item> = Focusing &
  Naming & {
    items: readonly Item[];
    keyOf: (item: Item) => string;
    columns: readonly DataColumn<Item>[];
    /** The card's heading (the record's name); the table has it in its own column. */
    title?: (item: Item) => string;
    /** The card's heading level, under the list's own heading. */
    titleLevel?: 2 | 3;
    /** The buttons of a record: the table's last column (headed `actionsHeader`), the foot of a card. */
    actions?: (item: Item) => ReactNode;
    actionsHeader?: string;
    itemAttributes?: (item: Item) => ItemAttributes;
    /** Names the element items' ids start with (the card heading's id), unique on the page. */
    idPrefix: string;
  };

/** A table from 768 px, cards below: the same columns, the same facts, the same actions. */
export function DataList<Item>(props: DataListProps<Item>) {
  const wide = useWideScreen();
  return wide ? <DataTable {...props} /> : <DataCards {...props} />;
}

function DataTable<Item>({
  items,
  keyOf,
  columns,
  actions,
  actionsHeader = 'Action',
  label,
  labelledBy,
  itemAttributes,
  focusKey = null,
  onFocused,
}: DataListProps<Item>) {
  return (
    <div className={`overflow-x-auto ${cardClass({ padding: 'none' })}`}>
      <table className="w-full text-left" aria-labelledby={labelledBy}>
        {label ? <caption className="sr-only">{label}</caption> : null}
        <thead className="border-b border-border text-small text-muted">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className="px-4 py-3 font-semibold">
                {column.header}
              </th>
            ))}
            {actions ? (
              <th scope="col" className="px-4 py-3 font-semibold">
                {actionsHeader}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const key = keyOf(item);
            return (
              <DataRow
                key={key}
                focus={key === focusKey}
                onFocused={onFocused}
                attributes={itemAttributes?.(item)}
              >
                {columns.map((column) => (
                  <td
                    key={column.header}
                    className={`px-4 py-3 ${column.nowrap ? 'whitespace-nowrap' : '[overflow-wrap:anywhere]'}`}
                  >
                    {column.cell(item)}
                  </td>
                ))}
                {actions ? <td className="px-4 py-3">{actions(item)}</td> : null}
              </DataRow>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function DataRow({
  focus,
  onFocused,
  attributes,
  children,
}: {
  focus: boolean;
  onFocused: (() => void) | undefined;
  attributes: ItemAttributes | undefined;
  children: ReactNode;
}) {
  const ref = useFocusWhen<HTMLTableRowElement>(focus, onFocused);
  // A row's aria-labelledby names a card's heading, which the table does not have.
  const { 'aria-labelledby': _heading, ...data } = attributes ?? {};
  return (
    <tr
      ref={ref}
      tabIndex={-1}
      {...data}
      className="border-b border-border align-top last:border-b-0 focus:outline-none focus:ring-2 focus:ring-focus focus:ring-inset"
    >
      {children}
    </tr>
  );
}

function DataCards<Item>({
  items,
  keyOf,
  columns,
  title,
  titleLevel = 3,
  actions,
  label,
  labelledBy,
  itemAttributes,
  idPrefix,
  focusKey,
  onFocused,
}: DataListProps<Item>) {
  const Heading = titleLevel === 2 ? 'h2' : 'h3';
  return (
    <CardList
      {...(label !== undefined ? { label } : {})}
      {...(labelledBy !== undefined ? { labelledBy } : {})}
      items={items}
      keyOf={keyOf}
      className="grid gap-3"
      cardClassName="flex min-w-0 flex-col gap-2"
      focusKey={focusKey ?? null}
      {...(onFocused ? { onFocused } : {})}
      itemAttributes={(item) => ({
        ...itemAttributes?.(item),
        ...(title ? { 'aria-labelledby': `${idPrefix}-${keyOf(item)}` } : {}),
      })}
    >
      {(item) => {
        const parts = columns.map(
          (column) => column.card?.(item) ?? { facts: [{ term: column.header, value: column.cell(item) }] },
        );
        const facts = parts.flatMap((part) => part.facts ?? []);
        const after = parts.map((part) => part.after).filter((node) => node !== undefined && node !== null);
        return (
          <>
            {title ? (
              <Heading id={`${idPrefix}-${keyOf(item)}`} className="text-heading [overflow-wrap:anywhere]">
                {title(item)}
              </Heading>
            ) : null}
            <dl className="grid gap-1 text-small">
              {facts.map((fact) => (
                <div key={fact.term} className="flex gap-1">
                  <dt className="shrink-0 text-muted">{fact.term}:</dt>
                  <dd className="min-w-0 [overflow-wrap:anywhere]">{fact.value}</dd>
                </div>
              ))}
            </dl>
            {after.map((node, index) => (
              <Fragment key={index}>{node}</Fragment>
            ))}
            {actions ? <div className="border-t border-border pt-3">{actions(item)}</div> : null}
          </>
        );
      }}
    </CardList>
  );
}
