import { BLOB_REFERENCE_PREFIX } from '../domain/sync';
import { previewResponseSchema } from '../domain/uploads';
import { userDb } from './db';
import { http } from './http';
import { OFFLINE_MESSAGE } from './http-errors';

// Opening a stored file: while it is still only on this device (`blob:<id>`) from the blob store, with no
// network; once uploaded, through a short-lived signed link from the server (online only).

export async function fileUrl(reference: string): Promise<string> {
  if (reference.startsWith(BLOB_REFERENCE_PREFIX)) {
    const stored = await userDb().blobs.get(reference.slice(BLOB_REFERENCE_PREFIX.length));
    if (!stored) throw new Error('This file is no longer on this device.');
    return URL.createObjectURL(stored.blob);
  }
  if (!navigator.onLine) throw new Error(OFFLINE_MESSAGE);
  const response = await http.get('/upload-image/preview_image', { params: { key: reference } });
  return previewResponseSchema.parse(response.data).url;
}
