import type { ReactNode } from 'react';

// A status in words with colour: the word carries the meaning, the colour only helps (never colour alone).

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-surface-muted text-text ring-border',
  info: 'bg-primary-soft text-primary-strong ring-primary/30',
  success: 'bg-success-soft text-success-strong ring-success/30',
  warning: 'bg-warning-soft text-warning-strong ring-warning/30',
  danger: 'bg-danger-soft text-danger-strong ring-danger/30',
};

export function Badge({
  tone = 'neutral',
  icon,
  children,
  className = '',
}: {
  tone?: BadgeTone;
  /** A lucide icon element, shown before the words (it is hidden from screen readers). */
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-small font-semibold ring-1 ring-inset ${tones[tone]} ${className}`}
    >
      {icon ? (
        <span aria-hidden="true" className="inline-flex [&>svg]:h-4 [&>svg]:w-4">
          {icon}
        </span>
      ) : null}
      {children}
    </span>
  );
}
