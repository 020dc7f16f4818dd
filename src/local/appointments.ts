import { appointmentFieldsSchema, type Appointment, type AppointmentFields } from '../domain/appointments';
import type { KincareDb } from './db';
import { enqueue } from './outbox';

// The write path of appointments: every add, edit and delete goes through here, is checked against
// the domain rules, and lands in the local table and the outbox in one transaction (see outbox.ts).

export type NewAppointment = AppointmentFields & { patient_id: string; caregiver_id: string | null };

export async function addAppointment(db: KincareDb, input: NewAppointment, now = new Date()): Promise<string> {
  const fields = appointmentFieldsSchema.parse(input);
  const id = crypto.randomUUID();
  const stamp = now.toISOString();
  const payload = { ...fields, id, patient_id: input.patient_id, caregiver_id: input.caregiver_id, created_at: stamp, updated_at: stamp };
  await enqueue(db, { resource: 'appointments', id, op: 'create', payload }, now.getTime());
  return id;
}

/** Sends only the fields that changed, so edits made elsewhere to other fields survive the merge. */
export async function editAppointment(db: KincareDb, id: string, changes: Partial<AppointmentFields>, now = new Date()): Promise<void> {
  const current = await db.appointments.get(id);
  if (!current) throw new Error('This appointment no longer exists.');
  const checked = appointmentFieldsSchema.partial().parse(changes);
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(checked)) {
    if (value !== undefined && current[field as keyof Appointment] !== value) patch[field] = value;
  }
  if (Object.keys(patch).length === 0) return;
  await enqueue(db, { resource: 'appointments', id, op: 'update', payload: { ...patch, updated_at: now.toISOString() } }, now.getTime());
}

export async function removeAppointment(db: KincareDb, id: string, now = new Date()): Promise<void> {
  await enqueue(db, { resource: 'appointments', id, op: 'delete' }, now.getTime());
}
