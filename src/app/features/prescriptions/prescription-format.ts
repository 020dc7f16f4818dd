import type { BadgeTone } from '../../ui/badge';
import {
  PRESCRIPTION_FORMS,
  PRESCRIPTION_STATUS_LABELS,
  PRESCRIPTION_STATUSES,
  type PrescriptionForm,
  type PrescriptionStatus,
} from '../../../domain/prescriptions';

// How the prescriptions screen names things: forms and statuses in words, and which status changes each
// status offers.

export const FORM_LABELS: Record<PrescriptionForm, string> = {
  tablet: 'Tablet',
  capsule: 'Capsule',
  liquid: 'Liquid',
  injection: 'Injection',
  inhaler: 'Inhaler',
  cream: 'Cream',
  drops: 'Drops',
  patch: 'Patch',
  other: 'Other',
};

export const FORM_OPTIONS = PRESCRIPTION_FORMS.map((form) => ({ value: form, label: FORM_LABELS[form] }));
export const STATUS_OPTIONS = PRESCRIPTION_STATUSES.map((status) => ({
  value: status,
  label: PRESCRIPTION_STATUS_LABELS[status],
}));

export const STATUS_TONES: Record<PrescriptionStatus, BadgeTone> = {
  active: 'success',
  on_hold: 'warning',
  completed: 'info',
  discontinued: 'neutral',
};

/** The status changes a card offers, in the order shown: the action's words and the status it sets. */
export function statusActions(status: PrescriptionStatus): { label: string; to: PrescriptionStatus }[] {
  const actions: { label: string; to: PrescriptionStatus }[] = [];
  if (status === 'active') actions.push({ label: 'Put on hold', to: 'on_hold' });
  else actions.push({ label: 'Resume', to: 'active' });
  if (status !== 'completed') actions.push({ label: 'Mark completed', to: 'completed' });
  if (status !== 'discontinued') actions.push({ label: 'Discontinue', to: 'discontinued' });
  return actions;
}

/** '30 tablets · 2 refills' (what is known of it), or ''. */
export function supplyText(quantity: number | null, refills: number | null): string {
  const parts: string[] = [];
  if (quantity !== null) parts.push(`Quantity ${quantity}`);
  if (refills !== null) parts.push(refills === 1 ? '1 refill' : `${refills} refills`);
  return parts.join(' · ');
}
