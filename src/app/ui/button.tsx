import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

// Colours are the theme's tokens (styles.css), so buttons read the same in light and dark.
const variants: Record<Variant, string> = {
  primary: 'bg-primary text-primary-on hover:bg-primary-hover disabled:opacity-60',
  secondary: 'border border-border-strong bg-surface text-text hover:bg-surface-muted disabled:opacity-60',
  danger: 'bg-danger text-danger-on hover:bg-danger-hover disabled:opacity-60',
  ghost: 'text-primary-strong hover:bg-primary-soft disabled:opacity-60',
};

/**
 * A button's look: at least 44 px high (a finger's width), with a visible focus ring. Also for a link that
 * reads as a button (a way to another screen drawn beside buttons).
 */
export function buttonClass(variant: Variant = 'primary', className = ''): string {
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-control px-4 py-2 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-focus focus-visible:ring-offset-2 focus-visible:ring-offset-surface disabled:cursor-not-allowed ${variants[variant]} ${className}`.trim();
}

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
