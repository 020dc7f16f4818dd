import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { updateProfileFieldsSchema, type Profile, type UpdateProfileFields } from '../../../domain/auth';
import { ETHNICITIES, GENDERS, RACES } from '../../../domain/options';
import { updateProfile } from '../../../local/account';
import { fieldErrors } from '../../../local/http';
import { FileField, SelectField, TextField } from '../../ui/fields';
import { ACCEPTED_UPLOAD_TYPES, uploadProblem } from '../../../domain/uploads';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

function valuesOf(profile: Profile) {
  return {
    name: profile.name,
    zip_code: profile.zip_code,
    birth_date: profile.birth_date ?? '',
    gender: profile.gender ?? '',
    race: profile.race ?? '',
    ethnicity: profile.ethnicity ?? '',
    phone: profile.phone ?? '',
    address: profile.address ?? '',
    city: profile.city ?? '',
    state: profile.state ?? '',
  };
}

export function ProfileForm({ profile }: { profile: Profile }) {
  const form = useZodForm(updateProfileFieldsSchema, valuesOf(profile));
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const { busy, failure, setFailure, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields = form.validate<UpdateProfileFields>();
    if (!fields || photoError) return;
    if (!navigator.onLine) {
      setFailure('You are offline. Updating your profile needs a connection.');
      return;
    }
    await run(
      async () => {
        const updated = await updateProfile(fields, photo);
        form.reset(valuesOf(updated));
        setPhoto(null);
        toast.success('Profile updated successfully');
      },
      (error) => form.setServerErrors(fieldErrors(error)),
    );
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Update profile"
      className="grid gap-x-4 sm:grid-cols-2"
    >
      <TextField label="Name" autoComplete="name" required {...form.field('name')} />
      <TextField
        label="Zip code"
        autoComplete="postal-code"
        inputMode="numeric"
        required
        {...form.field('zip_code')}
      />
      <TextField label="Birth date" type="date" {...form.field('birth_date')} />
      <SelectField
        label="Gender"
        placeholder="Choose..."
        options={asOptions(GENDERS)}
        {...form.field('gender')}
      />
      <SelectField label="Race" placeholder="Choose..." options={asOptions(RACES)} {...form.field('race')} />
      <SelectField
        label="Ethnicity"
        placeholder="Choose..."
        options={asOptions(ETHNICITIES)}
        {...form.field('ethnicity')}
      />
      <TextField label="Phone" type="tel" autoComplete="tel" {...form.field('phone')} />
      <TextField label="Address" autoComplete="street-address" {...form.field('address')} />
      <TextField label="City" autoComplete="address-level2" {...form.field('city')} />
      <TextField label="State" autoComplete="address-level1" {...form.field('state')} />
      <div className="sm:col-span-2">
        <FileField
          label="Profile photo (PNG, JPEG or WebP, at most 5 MB)"
          accept={ACCEPTED_UPLOAD_TYPES.profile.join(',')}
          error={photoError}
          onChoose={(file) => {
            const problem = file ? uploadProblem('profile', file) : null;
            setPhotoError(problem);
            setPhoto(file && !problem ? file : null);
          }}
        />
      </div>
      <FormAlert message={failure} className="sm:col-span-2" />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save profile'}
        </Button>
      </div>
    </form>
  );
}
