import type { ComponentProps } from 'react';
import { Form } from './form';
import { Sheet } from './sheet';

// A form in a sheet: a bottom sheet on a phone, a centred dialog from 768 px (sheet.tsx), titled, with the
// form of form.tsx inside (named by the title unless told otherwise), its failure and its buttons. The
// screen mounts it while the person adds or edits, so each opening starts from the record's values; as it
// goes, focus returns to what opened it. The focus starts in the form's first field (or, told not to, on the
// sheet's first control, as Headless UI's Dialog puts it).

type Props = Omit<ComponentProps<typeof Form>, 'label'> & {
  title: string;
  onClose: () => void;
  /** The form's own name, when it says more than the title ('Edit permissions of Alex'). */
  label?: string;
  size?: 'md' | 'lg';
  'data-testid'?: string;
};

export function FormSheet({
  title,
  onClose,
  label,
  size,
  focusFirstField = true,
  className = '',
  'data-testid': testId,
  ...form
}: Props) {
  return (
    <Sheet open onClose={onClose} title={title} size={size} data-testid={testId}>
      <Form
        {...form}
        label={label ?? title}
        focusFirstField={focusFirstField}
        className={`mt-4 ${className}`}
      />
    </Sheet>
  );
}
