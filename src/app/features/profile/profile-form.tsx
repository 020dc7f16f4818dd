import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { updateProfileFieldsSchema, type Profile, type UpdateProfileFields } from '../../../domain/auth';
import { ETHNICITIES, GENDERS, RACES } from '../../../domain/options';
import { updateProfile } from '../../../local/account';
import { errorMessages, fieldErrors } from '../../../local/http';
import { SelectField, TextField } from '../../ui/fields';
import { Button } from '../../ui/button';
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
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields = form.validate<UpdateProfileFields>();
    if (!fields) return;
    if (!navigator.onLine) {
      setFailure('You are offline. Updating your profile needs a connection.');
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const updated = await updateProfile(fields, photo);
      form.reset(valuesOf(updated));
      setPhoto(null);
      toast.success('Profile updated successfully');
    } catch (error) {
      form.setServerErrors(fieldErrors(error));
      setFailure(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
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
      <div className="mb-4 sm:col-span-2">
        <label htmlFor="profile-photo" className="block text-sm font-medium text-slate-800">
          Profile photo (PNG, JPEG or WebP, at most 5 MB)
        </label>
        <input
          id="profile-photo"
          type="file"
          accept="image/png,image/jpeg,image/webp"
          className="mt-1 block text-sm"
          onChange={(event) => setPhoto(event.target.files?.[0] ?? null)}
        />
      </div>
      {failure ? (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800 sm:col-span-2">
          {failure}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save profile'}
        </Button>
      </div>
    </form>
  );
}
