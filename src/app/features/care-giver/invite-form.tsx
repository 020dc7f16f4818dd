import { Suspense, useRef, useState } from 'react';
import { lazyPart } from '../../ui/lazy-part';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { CARE_MESSAGES, inviteBodySchema } from '../../../domain/caregivers';
import { isPlausibleEmail, spokenEmailToText } from '../../../domain/spoken-email';
import type { Permission } from '../../../domain/permissions';
import { sendCareRequest } from '../../../local/care-requests';
import { errorMessages, fieldErrors, OFFLINE_MESSAGE } from '../../../local/http-errors';
import { useOnline } from '../../ui/use-online';
import { SelectField, TextField } from '../../ui/fields';
import { focusFirstProblem, Form, GroupError, useFormSubmit } from '../../ui/form';
import { PermissionPicker } from '../../ui/permission-picker';
import { useZodForm } from '../../ui/use-zod-form';

// Invite a caregiver by e-mail (the body is domain/caregivers.ts's inviteBodySchema). The server mails a new
// person a registration link and shows an existing caregiver a received request; either way the patient
// sees 'Request sent successfully' and the invitation under Sent. Online only: it needs the other side.

/** local/speech.ts's text for a failed recognition, here too so the form does not load speech up front. */
const COULD_NOT_RECOGNIZE = 'Could not recognize speech. Try again.';

const inviteFormSchema = inviteBodySchema
  .pick({ caregiver_email: true, relationship: true, phone_number: true })
  .extend({ is_family: z.enum(['yes', 'no']) });
type InviteFormOutput = z.output<typeof inviteFormSchema>;

/** The server's answers about the e-mail itself: shown on the e-mail field, where the fix is made. */
const EMAIL_PROBLEMS: readonly string[] = [
  CARE_MESSAGES.inviteSelf,
  CARE_MESSAGES.alreadyInvited,
  CARE_MESSAGES.alreadyLinked,
];

// Voice input loads after the form (nothing of speech in the first screens' JavaScript).
const VoiceInput = lazyPart(() => import('../../ui/voice-input-button').then((module) => module.VoiceInput));

const EMPTY = { caregiver_email: '', is_family: 'no', relationship: '', phone_number: '' };

export function InviteForm() {
  const form = useZodForm(inviteFormSchema, EMPTY);
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [permissionsError, setPermissionsError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const online = useOnline();

  // Voice input (speech enabled): 'jane dot doe at mail dot com' becomes jane.doe@mail.com; what is not an
  // address is not put in the field, and the person says it again.
  const heardEmail = (transcript: string) => {
    const email = spokenEmailToText(transcript);
    if (!isPlausibleEmail(email)) return COULD_NOT_RECOGNIZE;
    form.field('caregiver_email').onChange(email);
    return null;
  };

  const save = async (values: InviteFormOutput) => {
    setPermissionsError(null);
    let message: string;
    try {
      message = await sendCareRequest({
        caregiver_email: values.caregiver_email,
        is_family: values.is_family === 'yes',
        relationship: values.relationship,
        phone_number: values.phone_number,
        permissions,
      });
    } catch (error) {
      const [problem] = errorMessages(error);
      if (problem === undefined || !EMAIL_PROBLEMS.includes(problem)) throw error;
      form.setServerErrors({ caregiver_email: problem });
      focusFirstProblem(formRef.current);
      return;
    }
    toast.success(message || CARE_MESSAGES.requestSent);
    form.reset(EMPTY);
    setPermissions([]);
  };
  const submission = useFormSubmit(form, save, {
    unavailable: () => (navigator.onLine ? null : OFFLINE_MESSAGE),
    onError: (error) => {
      const { permissions: permissionsProblem, ...fields } = fieldErrors(error);
      form.setServerErrors(fields);
      setPermissionsError(permissionsProblem ?? null);
    },
  });
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure = online && submission.failure === OFFLINE_MESSAGE ? null : submission.failure;

  return (
    <Form
      label="Invite a caregiver"
      formRef={formRef}
      columns={2}
      onSubmit={submission.onSubmit}
      failure={shownFailure}
      submitLabel="Send invitation"
      busyLabel="Sending..."
      busy={submission.busy}
    >
      <div className="flex min-w-0 flex-wrap items-start gap-x-2">
        <div className="min-w-0 flex-1">
          <TextField
            label="Caregiver email"
            type="email"
            autoComplete="off"
            inputMode="email"
            required
            {...form.field('caregiver_email')}
          />
        </div>
        <Suspense fallback={null}>
          <VoiceInput label="Caregiver email" onTranscript={heardEmail} />
        </Suspense>
      </div>
      <SelectField
        label="Family member"
        options={[
          { value: 'no', label: 'No' },
          { value: 'yes', label: 'Yes' },
        ]}
        {...form.field('is_family')}
      />
      <TextField label="Relationship" placeholder="e.g. Daughter, nurse" {...form.field('relationship')} />
      <TextField
        label="Phone number"
        type="tel"
        autoComplete="off"
        inputMode="tel"
        {...form.field('phone_number')}
      />
      <div className="mb-4 sm:col-span-2">
        <PermissionPicker
          legend="What this caregiver may do"
          idPrefix="invite"
          value={permissions}
          onChange={(next) => {
            setPermissions(next);
            setPermissionsError(null);
          }}
        />
        <GroupError message={permissionsError} />
      </div>
    </Form>
  );
}
