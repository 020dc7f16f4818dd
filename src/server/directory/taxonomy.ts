import type { Speciality } from '../../domain/directory';

// NPPES gives each provider up to 15 "Healthcare Provider Taxonomy Code"s from the NUCC Health Care
// Provider Taxonomy (https://taxonomy.nucc.org). This table turns the codes a patient would look for
// into the directory's specialities (SPECIALITIES in src/domain/directory.ts), with the NUCC wording kept
// for the doctor's qualifications. A code is looked up whole first, then by its first 6, 5 and 4
// characters where the whole family is one speciality (207X... is all orthopaedic surgery). Codes that
// are not here (pathologists, hospitalists, nurse anaesthetists, social workers...) are not imported.

export type DoctorTaxonomy = { speciality: Speciality; description: string };

const exact = (speciality: Speciality, description: string): DoctorTaxonomy => ({ speciality, description });

/**
 * Whole codes. `null` marks a code of a mapped family that is deliberately left out, so the family's
 * prefix does not claim it (2084P2900X is pain medicine, not psychiatry).
 */
const BY_CODE: Record<string, DoctorTaxonomy | null> = {
  // Allergy & Immunology
  '207K00000X': exact('Allergy and Immunology', 'Allergy & Immunology'),
  '207KA0200X': exact('Allergy and Immunology', 'Allergy'),
  '207KI0005X': exact('Allergy and Immunology', 'Clinical & Laboratory Immunology'),
  // Anesthesiology
  '207L00000X': exact('Anesthesiology', 'Anesthesiology'),
  '207LA0401X': exact('Anesthesiology', 'Addiction Medicine'),
  '207LC0200X': exact('Anesthesiology', 'Critical Care Medicine'),
  '207LH0002X': exact('Anesthesiology', 'Hospice and Palliative Medicine'),
  '207LP2900X': exact('Anesthesiology', 'Pain Medicine'),
  '207LP3000X': exact('Anesthesiology', 'Pediatric Anesthesiology'),
  // Dermatology
  '207N00000X': exact('Dermatology', 'Dermatology'),
  '207ND0101X': exact('Dermatology', 'MOHS-Micrographic Surgery'),
  '207ND0900X': exact('Dermatology', 'Dermatopathology'),
  '207NP0225X': exact('Dermatology', 'Pediatric Dermatology'),
  '207NS0135X': exact('Dermatology', 'Procedural Dermatology'),
  // Emergency Medicine
  '207P00000X': exact('Emergency Medicine', 'Emergency Medicine'),
  '207PE0004X': exact('Emergency Medicine', 'Emergency Medical Services'),
  '207PP0204X': exact('Emergency Medicine', 'Pediatric Emergency Medicine'),
  '207PS0010X': exact('Emergency Medicine', 'Sports Medicine'),
  '207PT0002X': exact('Emergency Medicine', 'Medical Toxicology'),
  // Family Medicine
  '207Q00000X': exact('Family Medicine', 'Family Medicine'),
  '207QA0000X': exact('Family Medicine', 'Adolescent Medicine'),
  '207QA0401X': exact('Family Medicine', 'Addiction Medicine'),
  '207QA0505X': exact('Family Medicine', 'Adult Medicine'),
  '207QB0002X': exact('Family Medicine', 'Obesity Medicine'),
  '207QG0300X': exact('Geriatric Medicine', 'Geriatric Medicine'),
  '207QH0002X': exact('Family Medicine', 'Hospice and Palliative Medicine'),
  '207QS0010X': exact('Family Medicine', 'Sports Medicine'),
  '207QS1201X': exact('Family Medicine', 'Sleep Medicine'),
  '208D00000X': exact('General Practice', 'General Practice'),
  // Internal Medicine and its subspecialities
  '207R00000X': exact('Internal Medicine', 'Internal Medicine'),
  '207RA0000X': exact('Internal Medicine', 'Adolescent Medicine'),
  '207RA0001X': exact('Cardiology', 'Advanced Heart Failure and Transplant Cardiology'),
  '207RA0002X': exact('Cardiology', 'Adult Congenital Heart Disease'),
  '207RA0201X': exact('Allergy and Immunology', 'Allergy & Immunology'),
  '207RA0401X': exact('Internal Medicine', 'Addiction Medicine'),
  '207RB0002X': exact('Internal Medicine', 'Obesity Medicine'),
  '207RC0000X': exact('Cardiology', 'Cardiovascular Disease'),
  '207RC0001X': exact('Cardiology', 'Clinical Cardiac Electrophysiology'),
  '207RC0200X': exact('Pulmonology', 'Critical Care Medicine'),
  '207RE0101X': exact('Endocrinology', 'Endocrinology, Diabetes & Metabolism'),
  '207RG0100X': exact('Gastroenterology', 'Gastroenterology'),
  '207RG0300X': exact('Geriatric Medicine', 'Geriatric Medicine'),
  '207RH0000X': exact('Hematology and Oncology', 'Hematology'),
  '207RH0002X': exact('Internal Medicine', 'Hospice and Palliative Medicine'),
  '207RH0003X': exact('Hematology and Oncology', 'Hematology & Oncology'),
  '207RH0005X': exact('Nephrology', 'Hypertension Specialist'),
  '207RI0001X': exact('Allergy and Immunology', 'Clinical & Laboratory Immunology'),
  '207RI0008X': exact('Gastroenterology', 'Hepatology'),
  '207RI0011X': exact('Cardiology', 'Interventional Cardiology'),
  '207RI0200X': exact('Infectious Disease', 'Infectious Disease'),
  '207RM1200X': exact('Radiology', 'Magnetic Resonance Imaging (MRI)'),
  '207RN0300X': exact('Nephrology', 'Nephrology'),
  '207RP1001X': exact('Pulmonology', 'Pulmonary Disease'),
  '207RR0500X': exact('Rheumatology', 'Rheumatology'),
  '207RS0010X': exact('Internal Medicine', 'Sports Medicine'),
  '207RS0012X': exact('Internal Medicine', 'Sleep Medicine'),
  '207RT0003X': exact('Gastroenterology', 'Transplant Hepatology'),
  '207RX0202X': exact('Hematology and Oncology', 'Medical Oncology'),
  // Nuclear Medicine
  '207U00000X': exact('Radiology', 'Nuclear Medicine'),
  // Obstetrics & Gynecology
  '207V00000X': exact('Obstetrics and Gynecology', 'Obstetrics & Gynecology'),
  '207VG0400X': exact('Obstetrics and Gynecology', 'Gynecology'),
  '207VX0000X': exact('Obstetrics and Gynecology', 'Obstetrics'),
  '207VM0101X': exact('Obstetrics and Gynecology', 'Maternal & Fetal Medicine'),
  '207VE0102X': exact('Obstetrics and Gynecology', 'Reproductive Endocrinology'),
  '207VX0201X': exact('Obstetrics and Gynecology', 'Gynecologic Oncology'),
  // Ophthalmology, Orthopaedic Surgery, Otolaryngology
  '207W00000X': exact('Ophthalmology', 'Ophthalmology'),
  '207X00000X': exact('Orthopaedic Surgery', 'Orthopaedic Surgery'),
  '207XS0106X': exact('Orthopaedic Surgery', 'Hand Surgery'),
  '207XS0117X': exact('Orthopaedic Surgery', 'Orthopaedic Surgery of the Spine'),
  '207XX0005X': exact('Orthopaedic Surgery', 'Sports Medicine'),
  '207Y00000X': exact('Otolaryngology', 'Otolaryngology'),
  // Pediatrics
  '208000000X': exact('Pediatrics', 'Pediatrics'),
  '2080A0000X': exact('Pediatrics', 'Adolescent Medicine'),
  '2080N0001X': exact('Pediatrics', 'Neonatal-Perinatal Medicine'),
  '2080P0202X': exact('Pediatrics', 'Pediatric Cardiology'),
  '2080P0205X': exact('Pediatrics', 'Pediatric Endocrinology'),
  '2080P0206X': exact('Pediatrics', 'Pediatric Gastroenterology'),
  '2080P0207X': exact('Pediatrics', 'Pediatric Hematology-Oncology'),
  '2080P0208X': exact('Pediatrics', 'Pediatric Infectious Diseases'),
  '2080P0214X': exact('Pediatrics', 'Pediatric Pulmonology'),
  // Physical Medicine & Rehabilitation
  '208100000X': exact('Physical Medicine and Rehabilitation', 'Physical Medicine & Rehabilitation'),
  // Psychiatry & Neurology
  '2084P0800X': exact('Psychiatry', 'Psychiatry'),
  '2084P0804X': exact('Psychiatry', 'Child & Adolescent Psychiatry'),
  '2084P0805X': exact('Psychiatry', 'Geriatric Psychiatry'),
  '2084P0802X': exact('Psychiatry', 'Addiction Psychiatry'),
  '2084F0202X': exact('Psychiatry', 'Forensic Psychiatry'),
  '2084A0401X': exact('Psychiatry', 'Addiction Medicine'),
  '2084P0015X': exact('Psychiatry', 'Psychosomatic Medicine'),
  '2084N0400X': exact('Neurology', 'Neurology'),
  '2084N0402X': exact('Neurology', 'Neurology with Special Qualifications in Child Neurology'),
  '2084N0600X': exact('Neurology', 'Clinical Neurophysiology'),
  '2084N0008X': exact('Neurology', 'Neuromuscular Medicine'),
  '2084V0102X': exact('Neurology', 'Vascular Neurology'),
  '2084E0001X': exact('Neurology', 'Epilepsy'),
  '2084B0040X': exact('Neurology', 'Behavioral Neurology & Neuropsychiatry'),
  '2084P0005X': exact('Neurology', 'Neurodevelopmental Disabilities'),
  '2084P0301X': exact('Neurology', 'Brain Injury Medicine'),
  '2084P2900X': null, // Pain Medicine
  // Radiology
  '2085R0202X': exact('Radiology', 'Diagnostic Radiology'),
  '2085R0001X': exact('Radiology', 'Radiation Oncology'),
  '2085R0204X': exact('Radiology', 'Vascular & Interventional Radiology'),
  '2085N0700X': exact('Radiology', 'Neuroradiology'),
  // Surgery
  '208600000X': exact('General Surgery', 'Surgery'),
  '2086S0129X': exact('General Surgery', 'Vascular Surgery'),
  '2086S0120X': exact('General Surgery', 'Pediatric Surgery'),
  '2086X0206X': exact('General Surgery', 'Surgical Oncology'),
  '2086S0127X': exact('General Surgery', 'Trauma Surgery'),
  '2086S0122X': null, // Plastic and Reconstructive Surgery
  '208C00000X': exact('General Surgery', 'Colon & Rectal Surgery'),
  // Urology
  '208800000X': exact('Urology', 'Urology'),
  '2088P0231X': exact('Urology', 'Pediatric Urology'),
  // Dentists
  '122300000X': exact('Dentistry', 'Dentist'),
  '1223G0001X': exact('Dentistry', 'General Practice Dentistry'),
  '1223P0221X': exact('Dentistry', 'Pediatric Dentistry'),
  '1223X0400X': exact('Dentistry', 'Orthodontics and Dentofacial Orthopedics'),
  '1223E0200X': exact('Dentistry', 'Endodontics'),
  '1223P0300X': exact('Dentistry', 'Periodontics'),
  '1223P0700X': exact('Dentistry', 'Prosthodontics'),
  '1223S0112X': exact('Dentistry', 'Oral and Maxillofacial Surgery'),
  // Optometrists
  '152W00000X': exact('Optometry', 'Optometrist'),
  '152WC0802X': exact('Optometry', 'Corneal and Contact Management'),
  '152WP0200X': exact('Optometry', 'Pediatrics'),
  '152WL0500X': exact('Optometry', 'Low Vision Rehabilitation'),
  // Podiatrists
  '213E00000X': exact('Podiatry', 'Podiatrist'),
  '213ES0103X': exact('Podiatry', 'Foot & Ankle Surgery'),
  '213ES0131X': exact('Podiatry', 'Foot Surgery'),
  '213EP1101X': exact('Podiatry', 'Primary Podiatric Medicine'),
  // Psychologists
  '103T00000X': exact('Psychology', 'Psychologist'),
  '103TC0700X': exact('Psychology', 'Clinical Psychologist'),
  '103TC2200X': exact('Psychology', 'Clinical Child & Adolescent Psychologist'),
  '103TC1900X': exact('Psychology', 'Counseling Psychologist'),
  '103TH0100X': exact('Psychology', 'Health Service Psychologist'),
  '103TB0200X': exact('Psychology', 'Cognitive & Behavioral Psychologist'),
  // Chiropractors
  '111N00000X': exact('Chiropractic', 'Chiropractor'),
  '111NS0005X': exact('Chiropractic', 'Sports Physician'),
  '111NX0800X': exact('Chiropractic', 'Orthopedic'),
  // Physical therapists
  '225100000X': exact('Physical Therapy', 'Physical Therapist'),
  '2251X0800X': exact('Physical Therapy', 'Orthopedic'),
  '2251S0007X': exact('Physical Therapy', 'Sports'),
  '2251G0304X': exact('Physical Therapy', 'Geriatrics'),
  '2251P0200X': exact('Physical Therapy', 'Pediatrics'),
  '2251N0400X': exact('Physical Therapy', 'Neurology'),
  // Nurse practitioners
  '363L00000X': exact('Nurse Practitioner', 'Nurse Practitioner'),
  '363LF0000X': exact('Nurse Practitioner', 'Family Nurse Practitioner'),
  '363LA2200X': exact('Nurse Practitioner', 'Adult Health Nurse Practitioner'),
  '363LA2100X': exact('Nurse Practitioner', 'Acute Care Nurse Practitioner'),
  '363LP0200X': exact('Nurse Practitioner', 'Pediatrics Nurse Practitioner'),
  '363LP0808X': exact('Nurse Practitioner', 'Psychiatric/Mental Health Nurse Practitioner'),
  '363LW0102X': exact('Nurse Practitioner', "Women's Health Nurse Practitioner"),
  '363LG0600X': exact('Nurse Practitioner', 'Gerontology Nurse Practitioner'),
  '363LP2300X': exact('Nurse Practitioner', 'Primary Care Nurse Practitioner'),
  '363LX0001X': exact('Nurse Practitioner', 'Obstetrics & Gynecology Nurse Practitioner'),
  // Physician assistants
  '363A00000X': exact('Physician Assistant', 'Physician Assistant'),
  '363AM0700X': exact('Physician Assistant', 'Medical Physician Assistant'),
  '363AS0400X': exact('Physician Assistant', 'Surgical Physician Assistant'),
};

/** Families whose every code is one speciality; the description is the family's name. */
const BY_PREFIX: Record<string, Speciality> = {
  '207K': 'Allergy and Immunology',
  '207L': 'Anesthesiology',
  '207N': 'Dermatology',
  '207P': 'Emergency Medicine',
  '207Q': 'Family Medicine',
  '207RC': 'Cardiology',
  '207RE': 'Endocrinology',
  '207RN': 'Nephrology',
  '207RP': 'Pulmonology',
  '207RR': 'Rheumatology',
  '207RX': 'Hematology and Oncology',
  '207R': 'Internal Medicine',
  '207V': 'Obstetrics and Gynecology',
  '207W': 'Ophthalmology',
  '207X': 'Orthopaedic Surgery',
  '207Y': 'Otolaryngology',
  '2080': 'Pediatrics',
  '2081': 'Physical Medicine and Rehabilitation',
  '2084P': 'Psychiatry',
  '2084N': 'Neurology',
  '2084V': 'Neurology',
  '2085': 'Radiology',
  '2086': 'General Surgery',
  '2088': 'Urology',
  '1223': 'Dentistry',
  '152W': 'Optometry',
  '213E': 'Podiatry',
  '103T': 'Psychology',
  '111N': 'Chiropractic',
  '2251': 'Physical Therapy',
  '363L': 'Nurse Practitioner',
  '363A': 'Physician Assistant',
};

/** "Healthcare Provider Taxonomy Code" as written in the file: 10 characters, the last an X. */
export function normaliseTaxonomyCode(code: string): string {
  return code.trim().toUpperCase();
}

/** The directory's speciality for a taxonomy code, or undefined for a code the directory leaves out. */
export function doctorTaxonomy(code: string): DoctorTaxonomy | undefined {
  const normalised = normaliseTaxonomyCode(code);
  const whole = BY_CODE[normalised];
  if (whole !== undefined) return whole ?? undefined;
  for (const length of [6, 5, 4]) {
    const speciality = BY_PREFIX[normalised.slice(0, length)];
    if (speciality) return { speciality, description: speciality };
  }
  return undefined;
}

/** NUCC's pharmacy codes (333600000X and its specialisations) all start 3336. */
export function isPharmacyTaxonomy(code: string): boolean {
  return normaliseTaxonomyCode(code).startsWith('3336');
}

const PHARMACY_KINDS: Record<string, string> = {
  '333600000X': 'Pharmacy',
  '3336C0002X': 'Clinic Pharmacy',
  '3336C0003X': 'Community/Retail Pharmacy',
  '3336C0004X': 'Compounding Pharmacy',
  '3336H0001X': 'Home Infusion Therapy Pharmacy',
  '3336I0012X': 'Institutional Pharmacy',
  '3336L0003X': 'Long Term Care Pharmacy',
  '3336M0002X': 'Mail Order Pharmacy',
  '3336M0003X': 'Managed Care Organization Pharmacy',
  '3336N0007X': 'Nuclear Pharmacy',
  '3336S0011X': 'Specialty Pharmacy',
};

/** What kind of pharmacy a 3336 code says (NUCC's wording), or "Pharmacy" for a code not listed. */
export function pharmacyKind(code: string): string {
  return PHARMACY_KINDS[normaliseTaxonomyCode(code)] ?? 'Pharmacy';
}
