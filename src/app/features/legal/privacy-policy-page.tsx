import { LegalPage } from './legal-page';

export function PrivacyPolicyPage() {
  return (
    <LegalPage title="Privacy Policy">
      <p>
        Your health data is yours. Kincare stores it to show it to you and to the caregivers you invite, with
        the permissions you choose.
      </p>
      <p>
        So that the app works without a signal, a copy of your data is kept on your device. Signing out
        deletes that copy.
      </p>
      <p>
        We never sell your data. Lab reports you upload are read automatically only to fill in the results for
        your review.
      </p>
      <p>You can ask us to delete your account and your data at any time.</p>
    </LegalPage>
  );
}
