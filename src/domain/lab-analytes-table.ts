// The analytes Kincare knows on a lab report (lab-analytes.ts looks them up): the LOINC code, the name people
// know, the names labs print, the usual unit and the other units a lab may use (each with the factor that
// turns it into the usual unit, so a plausibility check works whatever the unit), the range outside which a
// value is impossible or almost so (in the usual unit: a value out of it is a misread more often than a
// patient), and the panels the analyte belongs to (to suggest the report's type).

export const LAB_PANELS = [
  'Complete Blood Count',
  'Comprehensive Metabolic Panel',
  'Basic Metabolic Panel',
  'Lipid Panel',
  'Liver Panel',
  'Kidney Panel',
  'Thyroid Panel',
  'Hemoglobin A1c',
  'Iron Studies',
  'Vitamin Panel',
  'Urinalysis',
  'Inflammation Markers',
  'Coagulation Panel',
  'Electrolytes',
  'Cardiac Markers',
  'Hormone Panel',
] as const;
export type LabPanel = (typeof LAB_PANELS)[number];

export type Analyte = {
  code: string;
  name: string;
  synonyms: readonly string[];
  /** '' for a unitless result (INR, specific gravity, a ratio). */
  unit: string;
  /** Other units accepted, with the factor that converts a value in that unit to `unit`. */
  otherUnits: readonly (readonly [unit: string, factor: number])[];
  plausible: readonly [min: number, max: number];
  panels: readonly LabPanel[];
  /** Usually reported as words (Negative, Trace, Yellow): a urine dipstick result. */
  qualitative?: boolean;
};

const CBC: LabPanel[] = ['Complete Blood Count'];
const CMP: LabPanel[] = ['Comprehensive Metabolic Panel'];
const BMP_CMP: LabPanel[] = ['Basic Metabolic Panel', 'Comprehensive Metabolic Panel', 'Kidney Panel'];
const LYTES: LabPanel[] = [...BMP_CMP, 'Electrolytes'];
const LIVER_CMP: LabPanel[] = ['Comprehensive Metabolic Panel', 'Liver Panel'];
const LIPID: LabPanel[] = ['Lipid Panel'];
const THYROID: LabPanel[] = ['Thyroid Panel'];
const IRON: LabPanel[] = ['Iron Studies'];
const UA: LabPanel[] = ['Urinalysis'];
const COAG: LabPanel[] = ['Coagulation Panel'];

const COUNT_K = ['10^3/uL', 'K/uL', 'x10E3/uL', 'thou/uL', '10^9/L', 'thou/mm3', 'K/mm3'] as const;
const kCount = COUNT_K.slice(1).map((unit) => [unit, 1] as const);
const mCount = (['M/uL', 'x10E6/uL', 'mil/uL', '10^12/L', 'mil/mm3'] as const).map(
  (unit) => [unit, 1] as const,
);
const same = (...units: string[]) => units.map((unit) => [unit, 1] as const);
const U_L = same('IU/L', 'U/l');

function analyte(
  code: string,
  name: string,
  synonyms: string[],
  unit: string,
  otherUnits: (readonly [string, number])[],
  plausible: [number, number],
  panels: LabPanel[],
  qualitative?: boolean,
): Analyte {
  return {
    code,
    name,
    synonyms,
    unit,
    otherUnits,
    plausible,
    panels,
    ...(qualitative ? { qualitative } : {}),
  };
}

const differential = (
  cell: string,
  short: string[],
  percentCode: string,
  absoluteCode: string,
  percentMax: number,
  absoluteMax: number,
): Analyte[] => [
  analyte(
    percentCode,
    `${cell} %`,
    [cell, `${cell} %`, `${cell} Percent`, `% ${cell}`, ...short.flatMap((s) => [s, `${s} %`, `${s}%`])],
    '%',
    [],
    [0, percentMax],
    CBC,
  ),
  analyte(
    absoluteCode,
    `${cell} (Absolute)`,
    [
      `${cell} Absolute`,
      `Absolute ${cell}`,
      `${cell} #`,
      `${cell} Abs`,
      `Abs ${cell}`,
      cell,
      ...short.flatMap((s) => [`${s} #`, `${s}#`, `${s} Abs`, `Abs ${s}`, `${s} Absolute`, s]),
    ],
    '10^3/uL',
    [...kCount, ['cells/uL', 0.001], ['/uL', 0.001]],
    [0, absoluteMax],
    CBC,
  ),
];

// One analyte a line, so the table reads as a table.
// prettier-ignore
export const ANALYTES: readonly Analyte[] = [
  // Complete blood count with differential.
  analyte('6690-2', 'WBC', ['White Blood Cell Count', 'White Blood Cells', 'White Cell Count', 'Leukocytes', 'Leukocyte Count', 'WBC Count', 'Total WBC'], '10^3/uL', [...kCount, ['/uL', 0.001], ['cells/uL', 0.001]], [0.1, 500], CBC),
  analyte('789-8', 'RBC', ['Red Blood Cell Count', 'Red Blood Cells', 'Red Cell Count', 'Erythrocytes', 'Erythrocyte Count', 'RBC Count'], '10^6/uL', mCount, [0.5, 10], CBC),
  analyte('718-7', 'Hemoglobin', ['Hgb', 'Hb', 'Haemoglobin', 'HGB'], 'g/dL', [['g/L', 0.1], ['g/dl', 1]], [2, 25], CBC),
  analyte('4544-3', 'Hematocrit', ['Hct', 'Haematocrit', 'PCV', 'Packed Cell Volume'], '%', [['L/L', 100]], [5, 80], CBC),
  analyte('787-2', 'MCV', ['Mean Corpuscular Volume', 'Mean Cell Volume'], 'fL', same('fl', 'um3'), [40, 160], CBC),
  analyte('785-6', 'MCH', ['Mean Corpuscular Hemoglobin', 'Mean Cell Hemoglobin'], 'pg', [], [10, 60], CBC),
  analyte('786-4', 'MCHC', ['Mean Corpuscular Hemoglobin Concentration', 'Mean Cell Hemoglobin Concentration'], 'g/dL', [['g/L', 0.1], ['%', 1]], [20, 45], CBC),
  analyte('788-0', 'RDW', ['RDW-CV', 'Red Cell Distribution Width', 'RDW CV', 'Red Blood Cell Distribution Width'], '%', [], [5, 40], CBC),
  analyte('21000-5', 'RDW-SD', ['RDW SD'], 'fL', [], [20, 150], CBC),
  analyte('777-3', 'Platelets', ['Platelet Count', 'PLT', 'Platelet', 'Thrombocytes', 'PLT Count'], '10^3/uL', [...kCount, ['/uL', 0.001]], [1, 2000], CBC),
  analyte('32623-1', 'MPV', ['Mean Platelet Volume'], 'fL', same('fl'), [4, 20], CBC),
  ...differential('Neutrophils', ['Neut', 'Neutrophil', 'Neutro', 'Segs', 'Polys', 'NEU'], '770-8', '751-8', 100, 100),
  ...differential('Lymphocytes', ['Lymphs', 'Lymph', 'Lymphocyte', 'LYM'], '736-9', '731-0', 100, 400),
  ...differential('Monocytes', ['Monos', 'Mono', 'Monocyte', 'MON'], '5905-5', '742-7', 100, 50),
  ...differential('Eosinophils', ['Eos', 'Eosinophil', 'EOS'], '713-8', '711-2', 100, 50),
  ...differential('Basophils', ['Basos', 'Baso', 'Basophil', 'BAS'], '706-2', '704-7', 100, 20),
  analyte('71695-1', 'Immature Granulocytes %', ['Immature Granulocytes', 'Immature Grans', 'IG %', 'IG%', 'Immature Gran %'], '%', [], [0, 100], CBC),
  analyte('53115-2', 'Immature Granulocytes (Absolute)', ['Immature Grans (Abs)', 'Immature Granulocytes Absolute', 'IG #', 'Immature Grans Abs'], '10^3/uL', kCount, [0, 100], CBC),
  analyte('58413-6', 'NRBC', ['Nucleated RBC', 'Nucleated Red Blood Cells', 'NRBC %'], '/100 WBC', same('%', '/100WBC'), [0, 500], CBC),
  analyte('17849-1', 'Reticulocytes', ['Reticulocyte Count', 'Retic Count', 'Retic', 'Reticulocytes %'], '%', [], [0, 50], CBC),
  // Metabolic panels, kidney and electrolytes.
  analyte('2345-7', 'Glucose', ['Glucose Serum', 'Glucose, Serum', 'Blood Glucose', 'Fasting Glucose', 'Glucose Fasting', 'Glucose, Fasting', 'GLU', 'Blood Sugar', 'Fasting Blood Sugar', 'FBS', 'Glucose Random'], 'mg/dL', [['mmol/L', 18.016]], [10, 1500], [...BMP_CMP]),
  analyte('3094-0', 'BUN', ['Blood Urea Nitrogen', 'Urea Nitrogen', 'Urea Nitrogen (BUN)', 'Urea N'], 'mg/dL', [['mmol/L', 2.8]], [1, 250], BMP_CMP),
  analyte('2160-0', 'Creatinine', ['Creat', 'Creatinine Serum', 'Serum Creatinine', 'CREA'], 'mg/dL', [['umol/L', 1 / 88.4]], [0.1, 25], BMP_CMP),
  analyte('98979-8', 'eGFR', ['Estimated GFR', 'GFR Estimated', 'eGFR CKD-EPI', 'eGFR (CKD-EPI 2021)', 'GFR', 'EGFR If NonAfricn Am', 'eGFR Non-Afr. American', 'Glomerular Filtration Rate', 'Estimated Glomerular Filtration Rate'], 'mL/min/1.73m2', same('mL/min/1.73 m2', 'mL/min', 'mL/min/1.73', 'mL/min/{1.73_m2}'), [1, 200], BMP_CMP),
  analyte('3097-3', 'BUN/Creatinine Ratio', ['BUN/Creat Ratio', 'BUN Creatinine Ratio', 'Urea Nitrogen/Creatinine Ratio', 'BUN/Creatinine'], '', same('ratio', '(calc)'), [1, 100], BMP_CMP),
  analyte('2951-2', 'Sodium', ['Na', 'Na+', 'Sodium Serum'], 'mmol/L', same('mEq/L'), [100, 180], LYTES),
  analyte('2823-3', 'Potassium', ['K', 'K+', 'Potassium Serum'], 'mmol/L', same('mEq/L'), [1.5, 10], LYTES),
  analyte('2075-0', 'Chloride', ['Cl', 'Cl-', 'Chloride Serum'], 'mmol/L', same('mEq/L'), [60, 140], LYTES),
  analyte('2028-9', 'Carbon Dioxide', ['CO2', 'Carbon Dioxide Total', 'Total CO2', 'Bicarbonate', 'HCO3', 'TCO2', 'CO2 Content'], 'mmol/L', same('mEq/L'), [5, 50], LYTES),
  analyte('33037-3', 'Anion Gap', ['AGAP', 'Anion Gap 3'], 'mmol/L', same('mEq/L'), [0, 40], BMP_CMP),
  analyte('17861-6', 'Calcium', ['Ca', 'Calcium Serum', 'Calcium Total', 'Total Calcium'], 'mg/dL', [['mmol/L', 4.008]], [4, 20], BMP_CMP),
  analyte('2885-2', 'Total Protein', ['Protein Total', 'Protein', 'TP', 'Total Protein Serum'], 'g/dL', [['g/L', 0.1]], [2, 15], LIVER_CMP),
  analyte('1751-7', 'Albumin', ['ALB', 'Albumin Serum'], 'g/dL', [['g/L', 0.1]], [1, 7], LIVER_CMP),
  analyte('10834-0', 'Globulin', ['Globulin Total', 'Total Globulin'], 'g/dL', [['g/L', 0.1]], [0.5, 10], CMP),
  analyte('1759-0', 'Albumin/Globulin Ratio', ['A/G Ratio', 'AG Ratio', 'Albumin Globulin Ratio', 'A:G Ratio'], '', same('ratio'), [0.1, 5], CMP),
  analyte('1975-2', 'Total Bilirubin', ['Bilirubin Total', 'Bilirubin', 'T Bili', 'TBIL', 'Total Bili', 'Bili Total'], 'mg/dL', [['umol/L', 1 / 17.1]], [0, 50], LIVER_CMP),
  analyte('1968-7', 'Direct Bilirubin', ['Bilirubin Direct', 'D Bili', 'DBIL', 'Conjugated Bilirubin', 'Direct Bili'], 'mg/dL', [['umol/L', 1 / 17.1]], [0, 30], ['Liver Panel']),
  analyte('1971-1', 'Indirect Bilirubin', ['Bilirubin Indirect', 'Unconjugated Bilirubin', 'Indirect Bili'], 'mg/dL', [['umol/L', 1 / 17.1]], [0, 30], ['Liver Panel']),
  analyte('6768-6', 'Alkaline Phosphatase', ['ALP', 'Alk Phos', 'Alk Phosphatase', 'Alkaline Phos', 'ALKP'], 'U/L', U_L, [5, 3000], LIVER_CMP),
  analyte('1742-6', 'ALT', ['Alanine Aminotransferase', 'ALT (SGPT)', 'SGPT', 'Alanine Transaminase', 'ALAT'], 'U/L', U_L, [1, 10000], LIVER_CMP),
  analyte('1920-8', 'AST', ['Aspartate Aminotransferase', 'AST (SGOT)', 'SGOT', 'Aspartate Transaminase', 'ASAT'], 'U/L', U_L, [1, 10000], LIVER_CMP),
  analyte('2324-2', 'GGT', ['Gamma-Glutamyl Transferase', 'Gamma GT', 'GGTP', 'Gamma Glutamyltransferase'], 'U/L', U_L, [1, 3000], ['Liver Panel']),
  analyte('2532-0', 'LDH', ['Lactate Dehydrogenase', 'LD', 'Lactic Dehydrogenase'], 'U/L', U_L, [20, 5000], ['Liver Panel']),
  analyte('19123-9', 'Magnesium', ['Mg', 'Magnesium Serum'], 'mg/dL', [['mmol/L', 2.431], ['mEq/L', 1.215]], [0.3, 10], ['Electrolytes']),
  analyte('2777-1', 'Phosphorus', ['Phosphate', 'Phos', 'Inorganic Phosphorus', 'Phosphorus Inorganic'], 'mg/dL', [['mmol/L', 3.097]], [0.5, 20], ['Electrolytes', 'Kidney Panel']),
  analyte('3084-1', 'Uric Acid', ['Urate', 'Uric Acid Serum'], 'mg/dL', [['umol/L', 1 / 59.48]], [0.5, 25], ['Kidney Panel']),
  analyte('33863-2', 'Cystatin C', [], 'mg/L', [], [0.2, 10], ['Kidney Panel']),
  // Lipid panel.
  analyte('2093-3', 'Total Cholesterol', ['Cholesterol', 'Cholesterol Total', 'Chol', 'TC', 'Total Chol'], 'mg/dL', [['mmol/L', 38.67]], [30, 1000], LIPID),
  analyte('2571-8', 'Triglycerides', ['Triglyceride', 'TRIG', 'TG', 'Trigs'], 'mg/dL', [['mmol/L', 88.57]], [10, 10000], LIPID),
  analyte('2085-9', 'HDL Cholesterol', ['HDL', 'HDL-C', 'HDL Chol', 'HDL Cholesterol Direct', 'High Density Lipoprotein'], 'mg/dL', [['mmol/L', 38.67]], [5, 200], LIPID),
  analyte('13457-7', 'LDL Cholesterol', ['LDL', 'LDL-C', 'LDL Chol Calc (NIH)', 'LDL Chol Calc', 'LDL Calculated', 'LDL Cholesterol Calc', 'LDL Cholesterol Calculated', 'Low Density Lipoprotein', 'LDL-Cholesterol'], 'mg/dL', [['mmol/L', 38.67]], [5, 600], LIPID),
  analyte('18262-6', 'LDL Cholesterol (Direct)', ['LDL Direct', 'Direct LDL', 'LDL-C Direct'], 'mg/dL', [['mmol/L', 38.67]], [5, 600], LIPID),
  analyte('13458-5', 'VLDL Cholesterol', ['VLDL', 'VLDL-C', 'VLDL Chol Cal', 'VLDL Cholesterol Cal'], 'mg/dL', [['mmol/L', 38.67]], [1, 500], LIPID),
  analyte('43396-1', 'Non-HDL Cholesterol', ['Non HDL Cholesterol', 'Non-HDL', 'Non HDL Chol', 'Non-HDL-C'], 'mg/dL', [['mmol/L', 38.67]], [10, 1000], LIPID),
  analyte('9830-1', 'Cholesterol/HDL Ratio', ['Chol/HDL Ratio', 'Total Chol/HDL Ratio', 'TC/HDL Ratio', 'Cholesterol HDL Ratio', 'Chol/HDLC Ratio'], '', same('ratio', '(calc)'), [0.5, 30], LIPID),
  // Thyroid.
  analyte('3016-3', 'TSH', ['Thyroid Stimulating Hormone', 'Thyrotropin', 'TSH 3rd Generation', 'TSH Ultrasensitive'], 'uIU/mL', same('mIU/L', 'mU/L', 'uU/mL'), [0.005, 500], THYROID),
  analyte('3024-7', 'Free T4', ['T4 Free', 'FT4', 'Free Thyroxine', 'Thyroxine Free', 'T4, Free (Direct)'], 'ng/dL', [['pmol/L', 1 / 12.87]], [0.1, 10], THYROID),
  analyte('3026-2', 'Total T4', ['T4 Total', 'Thyroxine', 'T4', 'Thyroxine (T4)'], 'ug/dL', [['nmol/L', 1 / 12.87]], [1, 30], THYROID),
  analyte('3051-0', 'Free T3', ['T3 Free', 'FT3', 'Free Triiodothyronine', 'Triiodothyronine Free'], 'pg/mL', [['pmol/L', 0.651]], [0.5, 30], THYROID),
  analyte('3053-6', 'Total T3', ['T3 Total', 'Triiodothyronine', 'T3', 'Triiodothyronine (T3)'], 'ng/dL', [['nmol/L', 65.1]], [20, 800], THYROID),
  analyte('8099-4', 'Thyroid Peroxidase Antibodies', ['TPO Antibodies', 'Anti-TPO', 'TPO Ab', 'Thyroid Peroxidase Ab', 'Thyroid Peroxidase (TPO) Ab'], 'IU/mL', same('kIU/L', 'U/mL'), [0, 10000], THYROID),
  // Diabetes.
  analyte('4548-4', 'Hemoglobin A1c', ['HbA1c', 'A1C', 'Hgb A1c', 'Glycated Hemoglobin', 'Glycosylated Hemoglobin', 'Glycohemoglobin', 'HA1c', 'Hemoglobin A1C', 'Haemoglobin A1c', 'HbA1c (NGSP)'], '%', [], [3, 20], ['Hemoglobin A1c']),
  analyte('27353-2', 'Estimated Average Glucose', ['eAG', 'Est Average Glucose', 'Estimated Avg Glucose', 'Mean Plasma Glucose'], 'mg/dL', [['mmol/L', 18.016]], [40, 600], ['Hemoglobin A1c']),
  analyte('20448-7', 'Insulin', ['Fasting Insulin', 'Insulin Fasting'], 'uIU/mL', same('mIU/L', 'uU/mL'), [0.5, 1000], ['Hormone Panel']),
  // Iron studies and vitamins.
  analyte('2498-4', 'Iron', ['Serum Iron', 'Iron Total', 'Fe', 'Iron Serum'], 'ug/dL', [['umol/L', 5.585], ['mcg/dL', 1]], [5, 1000], IRON),
  analyte('2500-7', 'TIBC', ['Total Iron Binding Capacity', 'Iron Binding Capacity', 'Iron Binding Capacity (TIBC)'], 'ug/dL', [['umol/L', 5.585], ['mcg/dL', 1]], [50, 1000], IRON),
  analyte('2501-5', 'UIBC', ['Unsaturated Iron Binding Capacity'], 'ug/dL', [['umol/L', 5.585], ['mcg/dL', 1]], [10, 1000], IRON),
  analyte('2502-3', 'Transferrin Saturation', ['Iron Saturation', '% Saturation', 'Iron % Saturation', 'TSAT', 'Saturation', '% Sat'], '%', [], [1, 100], IRON),
  analyte('2276-4', 'Ferritin', ['Ferritin Serum'], 'ng/mL', same('ug/L', 'mcg/L'), [1, 100000], IRON),
  analyte('3034-6', 'Transferrin', [], 'mg/dL', [['g/L', 100]], [50, 800], IRON),
  analyte('62292-8', 'Vitamin D, 25-Hydroxy', ['Vitamin D', '25-OH Vitamin D', 'Vitamin D 25-OH', '25-Hydroxy Vitamin D', 'Vitamin D 25 Hydroxy', 'Vit D', '25(OH)D', '25-OH Vit D', 'Vitamin D3 25-OH', 'Vitamin D Total'], 'ng/mL', [['nmol/L', 0.4]], [2, 200], ['Vitamin Panel']),
  analyte('2132-9', 'Vitamin B12', ['B12', 'Cobalamin', 'Vit B12', 'Cyanocobalamin', 'Vitamin B-12'], 'pg/mL', [['pmol/L', 1.355], ['ng/L', 1]], [50, 5000], ['Vitamin Panel']),
  analyte('2284-8', 'Folate', ['Folic Acid', 'Serum Folate', 'Folate Serum'], 'ng/mL', [['nmol/L', 0.441], ['ug/L', 1]], [0.5, 50], ['Vitamin Panel']),
  // Inflammation and coagulation.
  analyte('1988-5', 'C-Reactive Protein', ['CRP', 'C Reactive Protein', 'CRP Quant'], 'mg/L', [['mg/dL', 10]], [0, 600], ['Inflammation Markers']),
  analyte('30522-7', 'hs-CRP', ['High Sensitivity CRP', 'hsCRP', 'CRP High Sensitivity', 'C-Reactive Protein Cardiac', 'Cardio CRP'], 'mg/L', [['mg/dL', 10]], [0, 200], ['Inflammation Markers']),
  analyte('30341-2', 'ESR', ['Sed Rate', 'Sedimentation Rate', 'Erythrocyte Sedimentation Rate', 'Sed Rate Westergren', 'ESR Westergren'], 'mm/h', same('mm/hr', 'mm/1hr'), [0, 150], ['Inflammation Markers']),
  analyte('5902-2', 'Prothrombin Time', ['PT', 'Protime', 'Pro Time'], 's', same('sec', 'seconds', 'secs'), [5, 120], COAG),
  analyte('6301-6', 'INR', ['International Normalized Ratio', 'PT INR', 'INR (PT)'], '', same('ratio'), [0.5, 15], COAG),
  analyte('3173-2', 'PTT', ['aPTT', 'APTT', 'Partial Thromboplastin Time', 'Activated PTT', 'Activated Partial Thromboplastin Time'], 's', same('sec', 'seconds', 'secs'), [10, 250], COAG),
  analyte('3255-7', 'Fibrinogen', [], 'mg/dL', [['g/L', 100]], [30, 1500], COAG),
  analyte('48065-7', 'D-Dimer', ['D Dimer', 'D-Dimer Quant'], 'ng/mL FEU', [['ug/mL FEU', 1000], ['mg/L FEU', 1000]], [0, 100000], COAG),
  // Other single tests.
  analyte('2857-1', 'PSA', ['Prostate Specific Antigen', 'PSA Total', 'Total PSA', 'PSA Screen'], 'ng/mL', same('ug/L'), [0, 10000], ['Hormone Panel']),
  analyte('10886-0', 'Free PSA', ['PSA Free', 'Prostate Specific Antigen Free'], 'ng/mL', same('ug/L'), [0, 1000], ['Hormone Panel']),
  analyte('2157-6', 'Creatine Kinase', ['CK', 'CPK', 'CK Total', 'Creatine Phosphokinase'], 'U/L', U_L, [5, 200000], ['Cardiac Markers']),
  analyte('1798-8', 'Amylase', ['Amylase Serum'], 'U/L', U_L, [1, 10000], ['Liver Panel']),
  analyte('3040-3', 'Lipase', ['Lipase Serum'], 'U/L', U_L, [1, 20000], ['Liver Panel']),
  analyte('2143-6', 'Cortisol', ['Cortisol AM', 'Cortisol Serum'], 'ug/dL', [['nmol/L', 1 / 27.59]], [0.1, 200], ['Hormone Panel']),
  analyte('2986-8', 'Testosterone', ['Testosterone Total', 'Total Testosterone'], 'ng/dL', [['nmol/L', 28.84]], [1, 3000], ['Hormone Panel']),
  analyte('13965-9', 'Homocysteine', ['Homocysteine Total', 'Homocyst(e)ine'], 'umol/L', [], [1, 500], ['Cardiac Markers']),
  analyte('30934-4', 'BNP', ['B-Type Natriuretic Peptide', 'Brain Natriuretic Peptide'], 'pg/mL', same('ng/L'), [0, 50000], ['Cardiac Markers']),
  analyte('33762-6', 'NT-proBNP', ['NT proBNP', 'N-Terminal Pro-BNP', 'Pro-BNP'], 'pg/mL', same('ng/L'), [0, 100000], ['Cardiac Markers']),
  analyte('14957-5', 'Microalbumin, Urine', ['Microalbumin', 'Urine Microalbumin', 'Albumin Urine'], 'mg/L', [['mg/dL', 10], ['ug/mL', 1]], [0, 5000], ['Kidney Panel']),
  analyte('9318-7', 'Albumin/Creatinine Ratio, Urine', ['Albumin/Creatinine Ratio', 'Microalb/Creat Ratio', 'UACR', 'ACR', 'Microalbumin/Creatinine Ratio'], 'mg/g', same('mg/g creat', 'ug/mg', 'mcg/mg creat'), [0, 10000], ['Kidney Panel']),
  // Urinalysis.
  analyte('5778-6', 'Urine Color', ['Color', 'Colour', 'Color Urine', 'Urine Colour'], '', [], [0, 0], UA, true),
  analyte('5767-9', 'Urine Appearance', ['Appearance', 'Clarity', 'Appearance Urine', 'Urine Clarity', 'Character'], '', [], [0, 0], UA, true),
  analyte('5811-5', 'Specific Gravity', ['Specific Gravity Urine', 'SG', 'Sp Gravity', 'Urine Specific Gravity', 'Sp. Gr.'], '', [], [1, 1.06], UA),
  analyte('5803-2', 'Urine pH', ['pH', 'pH Urine', 'Urine pH'], '', [], [4, 9.5], UA),
  analyte('5804-0', 'Urine Protein', ['Protein Urine', 'Urine Protein', 'Protein UA', 'Protein Qual', 'Protein'], 'mg/dL', [], [0, 2000], UA, true),
  analyte('5792-7', 'Urine Glucose', ['Glucose Urine', 'Glucose UA', 'Glucose Qual', 'Glucose'], 'mg/dL', [], [0, 5000], UA, true),
  analyte('5797-6', 'Urine Ketones', ['Ketones', 'Ketones Urine', 'Ketone', 'Urine Ketone'], 'mg/dL', [], [0, 500], UA, true),
  analyte('5794-3', 'Urine Blood', ['Occult Blood', 'Blood Urine', 'Blood', 'Hemoglobin Urine'], '', [], [0, 0], UA, true),
  analyte('5770-3', 'Urine Bilirubin', ['Bilirubin Urine', 'Bilirubin Qual', 'Bilirubin UA', 'Bilirubin'], '', [], [0, 0], UA, true),
  analyte('5818-0', 'Urobilinogen', ['Urobilinogen Urine', 'Urine Urobilinogen'], 'mg/dL', same('EU/dL', 'E.U./dL'), [0, 20], UA, true),
  analyte('5802-4', 'Nitrite', ['Nitrites', 'Nitrite Urine', 'Urine Nitrite'], '', [], [0, 0], UA, true),
  analyte('5799-2', 'Leukocyte Esterase', ['Leukocytes Urine', 'Leukocyte Esterase Urine', 'Leuk Esterase', 'LE'], '', [], [0, 0], UA, true),
  analyte('5821-4', 'Urine WBC', ['WBC Urine', 'WBC UA', 'Urine White Blood Cells', 'WBC/HPF', 'WBC'], '/hpf', same('/HPF', 'per hpf', 'cells/hpf'), [0, 500], UA),
  analyte('13945-1', 'Urine RBC', ['RBC Urine', 'RBC UA', 'Urine Red Blood Cells', 'RBC/HPF', 'RBC'], '/hpf', same('/HPF', 'per hpf', 'cells/hpf'), [0, 500], UA),
];
