import { LegalPage } from './legal-page';

export function TermsOfUsePage() {
  return (
    <LegalPage title="Terms of Use">
      <p>
        Kincare helps you keep your health records, medicines and appointments in one place, and share them
        with the people who care for you.
      </p>
      <p>
        Kincare does not give medical advice. Always ask your doctor or pharmacist about your care, and call
        emergency services in an emergency.
      </p>
      <p>
        You are responsible for the accuracy of what you enter and for whom you invite. A caregiver sees only
        what you allow, and you can change that at any time.
      </p>
      <p>
        Keep your password to yourself. Sign out on shared devices: signing out removes your data from the
        device.
      </p>
    </LegalPage>
  );
}
