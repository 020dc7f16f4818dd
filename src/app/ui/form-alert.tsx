/** A form's failure, announced to screen readers as it appears. */
export function FormAlert({ message, className = '' }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={`mb-4 rounded-control bg-danger-soft p-3 text-small text-danger-strong ring-1 ring-danger/30 ring-inset ${className}`}
    >
      {message}
    </p>
  );
}
