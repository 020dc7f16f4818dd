import { createFileRoute } from '@tanstack/react-router';
import { CareGiverPage } from '../../../features/care-giver/care-giver-page';

export const Route = createFileRoute('/_app/_patient/care-giver')({ component: CareGiverPage });
