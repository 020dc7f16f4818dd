import { useEffect, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  updateProfileFieldsSchema,
  updateProfileResponseSchema,
  type Profile,
  type UpdateProfileFields,
} from '../../../domain/auth';
import { ETHNICITIES, GENDERS, RACES } from '../../../domain/options';
import { updateProfile } from '../../../local/account';
import { userDb } from '../../../local/db';
import { http } from '../../../local/http';
import { fieldErrors, OFFLINE_MESSAGE } from '../../../local/http-errors';
import { useOnline } from '../../ui/use-online';
import { FileField, SelectField, TextField } from '../../ui/fields';
import { ACCEPTED_UPLOAD_TYPES, uploadProblem } from '../../../domain/uploads';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/form-alert';
import { useSubmit } from '../../ui/use-submit';
import { useZodForm } from '../../ui/use-zod-form';

const OFFLINE_PROFILE = 'You are offline. Updating your profile needs a connection.';

/** A photo is sent at most this many pixels on its longest side: plenty for an avatar, quick on a phone. */
const PHOTO_LONGEST_SIDE = 1024;
const PHOTO_QUALITY = 0.85;

function canvasBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, PHOTO_QUALITY));
}

/**
 * The photo made smaller on the device before it is sent: at most PHOTO_LONGEST_SIDE px, WebP (JPEG where
 * the browser cannot write WebP). A phone photo of several MB becomes a few hundred KB, and redrawing it
 * leaves behind what the file carried besides the picture (such as where it was taken).
 */
async function shrinkPhoto(file: File): Promise<File> {
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, PHOTO_LONGEST_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.fillStyle = '#ffffff'; // a transparent PNG must not turn black as a JPEG
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    let blob = await canvasBlob(canvas, 'image/webp');
    if (!blob || blob.type !== 'image/webp') blob = await canvasBlob(canvas, 'image/jpeg');
    if (!blob) return file;
    const extension = blob.type === 'image/webp' ? 'webp' : 'jpg';
    return new File([blob], `profile-photo.${extension}`, { type: blob.type });
  } finally {
    bitmap.close();
  }
}

/** The profile with a photo, reporting how much of it was sent (0 to 1) for the progress bar. */
async function updateProfileWithPhoto(
  fields: UpdateProfileFields,
  photo: File,
  onProgress: (sent: number) => void,
): Promise<Profile> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, value);
  form.append('photo', photo);
  const response = await http.put('/auth/update-profile', form, {
    quiet: true,
    onUploadProgress: (event) => {
      if (event.total) onProgress(event.loaded / event.total);
    },
  });
  const { data } = updateProfileResponseSchema.parse(response.data);
  await userDb().profile.put(data);
  return data;
}

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
  const [preparing, setPreparing] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const { busy, failure, setFailure, run } = useSubmit();
  const online = useOnline();
  // "You are offline" is about the moment it was said: once the connection is back it no longer shows.
  const shownFailure =
    online && (failure === OFFLINE_PROFILE || failure === OFFLINE_MESSAGE) ? null : failure;

  // The preview's object URL is let go when the photo is replaced, saved or the form goes away.
  const previewUrl = useRef<string | null>(null);
  const replacePhoto = (next: File | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = next ? URL.createObjectURL(next) : null;
    setPreview(previewUrl.current);
    setPhoto(next);
  };
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  const choosePhoto = async (file: File | undefined) => {
    replacePhoto(null);
    const typeProblem = file ? uploadProblem('profile', { type: file.type, size: 0 }) : null;
    setPhotoError(typeProblem);
    if (!file || typeProblem) return;
    setPreparing(true);
    try {
      const small = await shrinkPhoto(file);
      const problem = uploadProblem('profile', small);
      setPhotoError(problem);
      replacePhoto(problem ? null : small);
    } catch {
      setPhotoError('We could not read this image. Please choose another photo.');
    } finally {
      setPreparing(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields = form.validate<UpdateProfileFields>();
    if (!fields || photoError || preparing) return;
    if (!navigator.onLine) {
      setFailure(OFFLINE_PROFILE);
      return;
    }
    await run(
      async () => {
        if (photo) setProgress(0); // the bar shows from the start, before the first bytes are counted
        try {
          const updated = photo
            ? await updateProfileWithPhoto(fields, photo, (sent) => setProgress(sent))
            : await updateProfile(fields, null);
          form.reset(valuesOf(updated));
          replacePhoto(null);
          toast.success('Profile updated successfully');
        } finally {
          setProgress(null);
        }
      },
      (error) => form.setServerErrors(fieldErrors(error)),
    );
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Update profile"
      className="grid grid-cols-1 gap-x-4 sm:grid-cols-2"
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
          hint="Large photos are made smaller on this device before they are sent."
          error={photoError}
          onChoose={(file) => void choosePhoto(file)}
        />
        {preparing ? (
          <p role="status" className="mb-4 text-small text-muted">
            Preparing your photo...
          </p>
        ) : null}
        {preview && photo ? (
          <div className="mb-4 flex items-center gap-3">
            <img
              src={preview}
              alt="Preview of your new profile photo"
              className="h-20 w-20 shrink-0 rounded-full object-cover ring-1 ring-border"
            />
            <p className="text-small text-muted">
              This photo is saved when you select Save profile ({Math.max(1, Math.round(photo.size / 1024))}{' '}
              KB).
            </p>
          </div>
        ) : null}
        {progress !== null ? (
          <div className="mb-4">
            <label htmlFor="profile-photo-progress" className="block text-small font-medium text-text">
              Sending your photo: {Math.round(progress * 100)}%
            </label>
            <progress
              id="profile-photo-progress"
              max={100}
              value={Math.round(progress * 100)}
              className="mt-1 h-2 w-full accent-primary"
            />
          </div>
        ) : null}
      </div>
      <FormAlert message={shownFailure} className="sm:col-span-2" />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy || preparing}>
          {busy ? 'Saving...' : 'Save profile'}
        </Button>
      </div>
    </form>
  );
}
