// The reference range labs usually print for an adult, by LOINC code, in the analyte's usual unit
// (lab-analytes-table.ts). Labs differ a little (Glucose 65-99 or 70-99, ALT 0-44 or 7-56) and never by a
// factor of four: a printed range that far from its usual one was misread (OCR dropped its decimal
// points, '40-105' for 4.0-10.5, and the value's with it, so they still agree) or belongs to another test.
// Such a row is shown for review (lab-extraction-review.ts). A bound that is 0 or that labs print very
// differently (by sex, age or method: testosterone, lipase, NT-proBNP) is left out: null.

/** [low, high] in the usual unit; null where labs do not agree on that bound. */
export type UsualRange = readonly [low: number | null, high: number | null];

// prettier-ignore
export const USUAL_RANGES: Readonly<Record<string, UsualRange>> = {
  // Complete blood count.
  '6690-2': [4, 11], // WBC, 10^3/uL
  '789-8': [4.2, 5.9], // RBC, 10^6/uL
  '718-7': [12, 17.5], // Hemoglobin, g/dL
  '4544-3': [36, 50], // Hematocrit, %
  '787-2': [80, 100], // MCV, fL
  '785-6': [27, 33], // MCH, pg
  '786-4': [32, 36], // MCHC, g/dL
  '788-0': [11.5, 15], // RDW, %
  '21000-5': [39, 46], // RDW-SD, fL
  '777-3': [150, 400], // Platelets, 10^3/uL
  '32623-1': [7.5, 12.5], // MPV, fL
  '770-8': [40, 75], // Neutrophils %
  '751-8': [1.5, 7.8], // Neutrophils, 10^3/uL
  '736-9': [20, 45], // Lymphocytes %
  '731-0': [1, 4], // Lymphocytes, 10^3/uL
  '5905-5': [null, 12], // Monocytes %
  '742-7': [null, 1], // Monocytes, 10^3/uL
  '713-8': [null, 6], // Eosinophils %
  '711-2': [null, 0.5], // Eosinophils, 10^3/uL
  '706-2': [null, 2], // Basophils %
  '704-7': [null, 0.2], // Basophils, 10^3/uL
  '17849-1': [0.5, 2.5], // Reticulocytes, %
  // Metabolic panels, kidney and electrolytes.
  '2345-7': [70, 99], // Glucose, mg/dL
  '3094-0': [7, 20], // BUN, mg/dL
  '2160-0': [0.6, 1.3], // Creatinine, mg/dL
  '98979-8': [60, null], // eGFR, mL/min/1.73m2
  '3097-3': [10, 20], // BUN/Creatinine ratio
  '2951-2': [135, 145], // Sodium, mmol/L
  '2823-3': [3.5, 5.1], // Potassium, mmol/L
  '2075-0': [98, 107], // Chloride, mmol/L
  '2028-9': [22, 29], // Carbon dioxide, mmol/L
  '33037-3': [4, 12], // Anion gap, mmol/L
  '17861-6': [8.6, 10.3], // Calcium, mg/dL
  '2885-2': [6, 8.3], // Total protein, g/dL
  '1751-7': [3.5, 5], // Albumin, g/dL
  '10834-0': [2, 3.5], // Globulin, g/dL
  '1759-0': [1, 2.5], // Albumin/globulin ratio
  '1975-2': [0.2, 1.2], // Total bilirubin, mg/dL
  '1968-7': [null, 0.3], // Direct bilirubin, mg/dL
  '1971-1': [0.2, 1], // Indirect bilirubin, mg/dL
  '6768-6': [40, 130], // Alkaline phosphatase, U/L
  '1742-6': [7, 50], // ALT, U/L
  '1920-8': [10, 40], // AST, U/L
  '2324-2': [8, 61], // GGT, U/L
  '2532-0': [140, 280], // LDH, U/L
  '19123-9': [1.7, 2.4], // Magnesium, mg/dL
  '2777-1': [2.5, 4.5], // Phosphorus, mg/dL
  '3084-1': [3.4, 7], // Uric acid, mg/dL
  '33863-2': [0.6, 1], // Cystatin C, mg/L
  // Lipids.
  '2093-3': [null, 200], // Total cholesterol, mg/dL
  '2571-8': [null, 150], // Triglycerides, mg/dL
  '2085-9': [40, null], // HDL cholesterol, mg/dL
  '13457-7': [null, 100], // LDL cholesterol, mg/dL
  '18262-6': [null, 100], // LDL cholesterol (direct), mg/dL
  '13458-5': [5, 40], // VLDL cholesterol, mg/dL
  '43396-1': [null, 130], // Non-HDL cholesterol, mg/dL
  '9830-1': [null, 5], // Cholesterol/HDL ratio
  // Thyroid.
  '3016-3': [0.4, 4.5], // TSH, uIU/mL
  '3024-7': [0.8, 1.8], // Free T4, ng/dL
  '3026-2': [4.5, 12], // Total T4, ug/dL
  '3051-0': [2.3, 4.2], // Free T3, pg/mL
  '3053-6': [80, 200], // Total T3, ng/dL
  // Diabetes.
  '4548-4': [4, 5.6], // Hemoglobin A1c, %
  '20448-7': [2.6, 24.9], // Insulin, uIU/mL
  // Iron studies and vitamins.
  '2498-4': [60, 170], // Iron, ug/dL
  '2500-7': [250, 450], // TIBC, ug/dL
  '2501-5': [111, 343], // UIBC, ug/dL
  '2502-3': [20, 50], // Transferrin saturation, %
  '2276-4': [30, 400], // Ferritin, ng/mL
  '3034-6': [200, 360], // Transferrin, mg/dL
  '62292-8': [30, 100], // Vitamin D, 25-hydroxy, ng/mL
  '2132-9': [200, 900], // Vitamin B12, pg/mL
  '2284-8': [3, null], // Folate, ng/mL
  // Inflammation and coagulation.
  '1988-5': [null, 10], // C-reactive protein, mg/L
  '30522-7': [null, 3], // hs-CRP, mg/L
  '30341-2': [null, 20], // ESR, mm/h
  '5902-2': [11, 13.5], // Prothrombin time, s
  '6301-6': [0.8, 1.2], // INR
  '3173-2': [25, 35], // PTT, s
  '3255-7': [200, 400], // Fibrinogen, mg/dL
  '48065-7': [null, 500], // D-dimer, ng/mL FEU
  // Other single tests.
  '2857-1': [null, 4], // PSA, ng/mL
  '2157-6': [30, 200], // Creatine kinase, U/L
  '1798-8': [30, 110], // Amylase, U/L
  '13965-9': [null, 15], // Homocysteine, umol/L
  '30934-4': [null, 100], // BNP, pg/mL
  '9318-7': [null, 30], // Albumin/creatinine ratio, urine, mg/g
  // Urinalysis.
  '5811-5': [1.005, 1.03], // Specific gravity
  '5803-2': [5, 8], // Urine pH
  '5818-0': [0.2, 1], // Urobilinogen, mg/dL
};

/** How far a printed bound may be from the usual one, either way, before the range is doubted. */
export const USUAL_RANGE_FACTOR = 4;
