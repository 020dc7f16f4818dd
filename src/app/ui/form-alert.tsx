/** A form's failure, announced to screen readers as it appears. */
export function FormAlert({ message, className = '' }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={`mb-4 rounded bg-red-50 p-3 text-sm text-red-800 ${className}`}>
      {message}
    </p>
  );
}
