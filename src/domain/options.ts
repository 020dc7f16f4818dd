// The option lists (README.md beside this file), value then label.
export const RACES = [
  'Caucasian',
  'Black/African-American',
  'American Indian/Native Alaskan',
  'Asian',
  'Native Hawaiian or Pacific Islander',
  'Other',
] as const;
export type Race = (typeof RACES)[number];

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export type Gender = (typeof GENDERS)[number];

export const ETHNICITIES = ['Hispanic or Latino', 'Not Hispanic or Not Latino'] as const;
export type Ethnicity = (typeof ETHNICITIES)[number];

export const ACCOUNT_TYPES = [
  { value: 'Patient', label: 'Patient' },
  { value: 'Caregiver', label: 'Family and Caregiver' },
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number]['value'];
