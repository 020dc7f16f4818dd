import { createFileRoute } from '@tanstack/react-router';
import { ShareLinksPage } from '../../../features/share-links/share-links-page';
import { useProfile } from '../../../shell/use-session';

export const Route = createFileRoute('/_app/_patient/share-links')({
  component: function PatientShareLinks() {
    return <ShareLinksPage patientId={useProfile()?.patient_id ?? null} />;
  },
});
