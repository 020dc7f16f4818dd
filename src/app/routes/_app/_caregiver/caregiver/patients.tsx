import { createFileRoute } from '@tanstack/react-router';
import { PatientsPage } from '../../../../features/caregiver-patients/patients-page';

export const Route = createFileRoute('/_app/_caregiver/caregiver/patients')({ component: PatientsPage });
