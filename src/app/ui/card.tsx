import type { ComponentPropsWithRef, ElementType } from 'react';

// The raised surface every screen lays its content on: the theme's surface, radius, shadow and ring
// (styles.css), so a card reads the same in light and dark. One place for its classes: a feature says
// which element it is (a list's item, a section, a form) and how much room it needs, never the classes.

export type CardPadding = 'none' | 'row' | 'snug' | 'item' | 'tile' | 'page' | 'frame';

const PADDING: Record<CardPadding, string> = {
  none: '',
  /** A card of rows that draw their own lines (a divided list): room at the sides only. */
  row: 'px-4',
  snug: 'p-3',
  /** An item of a list. */
  item: 'p-4',
  /** A card on a grid of cards (Home, the caregiver's summary). */
  tile: 'p-4 sm:p-5',
  /** A card of its own on a page. */
  page: 'p-4 sm:p-6',
  /** The one card of a page without the app's shell (sign-up, verify, billing results). */
  frame: 'p-6',
};

export type CardVariant = 'raised' | 'dashed';

export type CardLook = {
  padding?: CardPadding;
  /** 'dashed': a box inside a form or an empty list, drawn in, not lifted (the upload boxes, empty states). */
  variant?: CardVariant;
  /** Takes the focus from code (after a save, a removal), with a visible ring; never by Tab. */
  focusable?: boolean;
  /** The chosen one among its neighbours (the current plan): a thicker ring in the primary colour. */
  highlighted?: boolean;
};

/** The classes of a card, for an element the Card component cannot be (a table's wrapper). */
export function cardClass({
  padding = 'page',
  variant = 'raised',
  focusable = false,
  highlighted = false,
}: CardLook = {}): string {
  const surface =
    variant === 'dashed'
      ? 'rounded-card border border-dashed border-border-strong bg-surface-muted text-text'
      : `rounded-card bg-surface text-text shadow-card ${highlighted ? 'ring-2 ring-primary' : 'ring-1 ring-border'}`;
  const focus = focusable ? 'focus:outline-none focus:ring-2 focus:ring-focus' : '';
  return [surface, PADDING[padding], focus].filter(Boolean).join(' ');
}

export type CardProps<As extends ElementType> = CardLook & {
  /** The element the card is: a section (the default), a list's item, a form, a div. */
  as?: As;
  className?: string;
} & Omit<ComponentPropsWithRef<As>, keyof CardLook | 'as' | 'className'>;

export function Card<As extends ElementType = 'section'>({
  as,
  padding,
  variant,
  focusable,
  highlighted,
  className = '',
  ...rest
}: CardProps<As>) {
  const Element: ElementType = as ?? 'section';
  const classes = cardClass({ padding, variant, focusable, highlighted });
  return (
    <Element
      {...(focusable ? { tabIndex: -1 } : {})}
      {...rest}
      className={className ? `${classes} ${className}` : classes}
    />
  );
}
