import { useCallback, useSyncExternalStore } from 'react';
import {
  DEFAULT_TARGETS,
  DEFAULT_UNITS_METRIC,
  DEFAULT_UNITS_US,
  PLAUSIBLE,
  VITAL_UNITS,
  type VitalTarget,
  type VitalTargets,
  type VitalUnit,
  type VitalUnitChoice,
} from '../../../domain/vitals';

// The person's units and target ranges for a patient's vitals: a choice of this device, kept in
// localStorage under the signed-in person and the patient (a caregiver may read a patient's weight in kg
// while the patient reads it in lb). Until they choose, the units follow the device's locale (the United
// States reads lb, °F and mg/dL) and the targets are common adult ranges (domain/vitals.ts).

export type VitalSettings = { units: VitalUnitChoice; targets: VitalTargets };

const KEY_PREFIX = 'vitals:';
const keyOf = (ownerId: string, patientId: string) => `${KEY_PREFIX}${ownerId}:${patientId}`;

/** The units a locale reads: the United States' customary ones for a US locale ('en-US', 'es-US'). */
export function defaultUnitsFor(locale: string): VitalUnitChoice {
  const region = locale.split(/[-_]/)[1]?.toUpperCase();
  return region === 'US' ? DEFAULT_UNITS_US : DEFAULT_UNITS_METRIC;
}

const deviceLocale = () => (typeof navigator === 'undefined' ? 'en-US' : navigator.language || 'en-US');

function isUnitOf(kind: keyof typeof VITAL_UNITS, unit: unknown): unit is VitalUnit {
  return (VITAL_UNITS[kind] as readonly unknown[]).includes(unit);
}

/** A target as stored, if it still is one (a hand-edited or older entry falls back to the default). */
function targetOf(kind: keyof typeof VITAL_UNITS, stored: unknown): VitalTarget | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { low, high, unit } = stored as Record<string, unknown>;
  if (typeof low !== 'number' || typeof high !== 'number' || !isUnitOf(kind, unit)) return undefined;
  if (!Number.isFinite(low) || !Number.isFinite(high)) return undefined;
  return { low, high, unit };
}

/** What is stored, read defensively: any part that is not as written falls back to its default. */
function parsed(raw: string | null, locale: string): VitalSettings {
  const units = { ...defaultUnitsFor(locale) };
  const targets: VitalTargets = structuredClone(DEFAULT_TARGETS);
  let stored: { units?: Record<string, unknown>; targets?: Record<string, unknown> } = {};
  try {
    stored = raw ? (JSON.parse(raw) as typeof stored) : {};
  } catch {
    stored = {};
  }
  if (isUnitOf('weight', stored.units?.weight))
    units.weight = stored.units.weight as VitalUnitChoice['weight'];
  if (isUnitOf('blood_glucose', stored.units?.blood_glucose))
    units.blood_glucose = stored.units.blood_glucose as VitalUnitChoice['blood_glucose'];
  if (isUnitOf('temperature', stored.units?.temperature))
    units.temperature = stored.units.temperature as VitalUnitChoice['temperature'];
  for (const kind of ['pulse', 'weight', 'blood_glucose', 'temperature', 'oxygen_saturation'] as const) {
    const target = targetOf(kind, stored.targets?.[kind]);
    if (target) targets[kind] = target;
  }
  const pressure = stored.targets?.blood_pressure as Record<string, unknown> | undefined;
  const systolic = targetOf('blood_pressure', pressure?.systolic);
  const diastolic = targetOf('blood_pressure', pressure?.diastolic);
  if (systolic && diastolic) targets.blood_pressure = { systolic, diastolic };
  return { units, targets };
}

// One snapshot per key, so useSyncExternalStore sees the same object until the stored text changes.
const snapshots = new Map<string, { raw: string | null; settings: VitalSettings }>();
const listeners = new Set<() => void>();

function storedText(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The settings for this person and patient (the defaults until they choose). */
export function readVitalSettings(
  ownerId: string,
  patientId: string,
  locale = deviceLocale(),
): VitalSettings {
  const key = keyOf(ownerId, patientId);
  const raw = storedText(key);
  const known = snapshots.get(`${key}|${locale}`);
  if (known && known.raw === raw) return known.settings;
  const settings = parsed(raw, locale);
  snapshots.set(`${key}|${locale}`, { raw, settings });
  return settings;
}

/** Keeps the settings on this device; answers a sentence when the browser refuses to store them. */
export function saveVitalSettings(
  ownerId: string,
  patientId: string,
  settings: VitalSettings,
): string | null {
  try {
    localStorage.setItem(keyOf(ownerId, patientId), JSON.stringify(settings));
  } catch {
    return 'Your units and targets could not be kept on this device (its storage is full or turned off).';
  }
  for (const listener of listeners) listener();
  return null;
}

/** A target is a pair of numbers the unit can read, the lower one first. */
export function targetProblem(
  label: string,
  low: number | null,
  high: number | null,
  unit: VitalUnit,
): string | null {
  if (low === null || high === null) return `Enter both ends of the ${label.toLowerCase()} target.`;
  const range = PLAUSIBLE[unit];
  if (low < range.min || high > range.max)
    return `The ${label.toLowerCase()} target must lie between ${range.min} and ${range.max} ${unit}.`;
  if (low >= high) return `The lower end of the ${label.toLowerCase()} target must be below the upper end.`;
  return null;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(KEY_PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The settings of this person for the patient, following changes (from other tabs too), and a saver. */
export function useVitalSettings(
  ownerId: string,
  patientId: string,
): [VitalSettings, (settings: VitalSettings) => string | null] {
  const settings = useSyncExternalStore(subscribe, () => readVitalSettings(ownerId, patientId));
  const save = useCallback(
    (next: VitalSettings) => saveVitalSettings(ownerId, patientId, next),
    [ownerId, patientId],
  );
  return [settings, save];
}
