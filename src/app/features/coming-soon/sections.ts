// What each menu entry without a screen yet will do, in the words of the spec's sections (SPEC sections 1,
// 2 and 7), and what a person can do meanwhile. Titles are the spec's page titles.

export type ComingSoonSection = 'medical-history';

type Section = { title: string; will: string[]; meanwhile: { patient: string; caregiver: string } };

const KEEP_APPOINTMENTS = {
  patient: 'Meanwhile, you can keep your appointments and your profile in Kincare.',
  caregiver: 'Meanwhile, you can keep your profile up to date.',
};

export const COMING_SOON: Record<ComingSoonSection, Section> = {
  'medical-history': {
    title: 'Medical History',
    will: [
      'Keep your conditions, operations, allergies and family history in one place.',
      'Keep the notes of your daily health check-ins.',
    ],
    meanwhile: KEEP_APPOINTMENTS,
  },
};
