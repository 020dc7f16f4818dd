import { useId, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { FileText, Phone, Printer, QrCode, TriangleAlert } from 'lucide-react';
import type { MedicalId, MedicalIdContact } from '../../../domain/medical-id';
import { Button, buttonClass } from '../../ui/button';
import { Card, PageTitle } from '../../ui/page';
import { useMedicalId } from './use-medical-id';

// /medical-id: the patient's medical ID, one tap from Home, read from this device so it opens offline:
// allergies (the dangerous first), conditions, the medicines taken now, and who to call; with a wallet
// card to print (styles.css prints the card alone).

function Section({ title, empty, children }: { title: string; empty: string; children: ReactNode[] }) {
  const heading = useId();
  return (
    <section aria-labelledby={heading} className="mt-6">
      <h2 id={heading} className="text-lg font-semibold text-text">
        {title}
      </h2>
      {children.length === 0 ? (
        <p className="mt-1 text-muted">{empty}</p>
      ) : (
        <ul className="mt-2 space-y-2">{children}</ul>
      )}
    </section>
  );
}

function ContactLine({ contact }: { contact: MedicalIdContact }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2">
      <span>
        <span className="font-semibold">{contact.name}</span>
        <span className="text-muted"> · {contact.role}</span>
      </span>
      {contact.phone ? (
        <a
          href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}
          className="inline-flex min-h-11 items-center gap-2 rounded-control border border-border-strong px-3 font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
          aria-label={`Call ${contact.name}, ${contact.phone}`}
        >
          <Phone aria-hidden="true" className="h-4 w-4" />
          {contact.phone}
        </a>
      ) : (
        <span className="text-muted">No phone number</span>
      )}
    </li>
  );
}

/** The card to print and carry: the same facts, as short as they can be. */
function WalletCard({ id }: { id: MedicalId }) {
  const line = (label: string, items: string[], none: string) => (
    <p>
      <span className="font-semibold">{label}:</span> {items.length > 0 ? items.join('; ') : none}
    </p>
  );
  const call = id.contacts.filter((contact) => contact.phone).slice(0, 2);
  return (
    <div
      data-print-card
      className="mt-3 max-w-md rounded-card border-2 border-text bg-surface p-3 text-sm text-text"
      aria-label="Wallet card"
      role="group"
    >
      <p className="text-base font-bold">Medical ID · {id.name}</p>
      {id.born ? <p>{id.born}</p> : null}
      {line(
        'Allergies',
        id.allergies.map((allergy) => allergy.substance),
        'none recorded',
      )}
      {line('Conditions', id.conditions, 'none recorded')}
      {line('Medicines', id.medicines, 'none recorded')}
      {call.length > 0
        ? line(
            'Call',
            call.map((contact) => `${contact.name} ${contact.phone ?? ''}`),
            '',
          )
        : null}
    </div>
  );
}

export function MedicalIdPage({ patientId }: { patientId: string | null }) {
  const id = useMedicalId(patientId);
  return (
    <>
      <PageTitle description="What a first responder or a new doctor needs to know. It opens without a signal.">
        Medical ID
      </PageTitle>
      {id === undefined ? (
        <p role="status" className="text-muted">
          Checking your health data...
        </p>
      ) : (
        <>
          <Card padding="page">
            <p className="text-xl font-bold text-text">{id.name}</p>
            {id.born ? <p className="text-muted">{id.born}</p> : null}
            <Section title="Allergies" empty="No allergies recorded.">
              {id.allergies.map((allergy) => (
                <li
                  key={allergy.substance}
                  className={allergy.dangerous ? 'rounded-control bg-danger-soft p-2' : ''}
                >
                  <span className="inline-flex items-center gap-1 font-semibold text-text">
                    {allergy.dangerous ? (
                      <TriangleAlert aria-hidden="true" className="h-4 w-4 text-danger" />
                    ) : null}
                    {allergy.substance}
                  </span>
                  {allergy.details ? <span className="text-text"> · {allergy.details}</span> : null}
                </li>
              ))}
            </Section>
            <Section title="Conditions" empty="No conditions recorded.">
              {id.conditions.map((condition) => (
                <li key={condition}>{condition}</li>
              ))}
            </Section>
            <Section title="Medicines taken now" empty="No medicines recorded.">
              {id.medicines.map((medicine) => (
                <li key={medicine}>{medicine}</li>
              ))}
            </Section>
            <Section title="Who to call" empty="No caregivers or doctors recorded.">
              {id.contacts.map((contact) => (
                <ContactLine key={`${contact.name}-${contact.role}`} contact={contact} />
              ))}
            </Section>
          </Card>
          <Card padding="page" className="mt-4">
            <h2 className="text-lg font-semibold text-text">Wallet card</h2>
            <p className="mt-1 text-muted">Print it, fold it and keep it with your ID.</p>
            <WalletCard id={id} />
            <Button className="mt-4" variant="secondary" onClick={() => window.print()}>
              <Printer aria-hidden="true" className="h-5 w-5" />
              Print wallet card
            </Button>
          </Card>
          <Card padding="page" className="mt-4">
            <h2 className="text-lg font-semibold text-text">For a doctor&apos;s visit</h2>
            <p className="mt-1 text-muted">
              A one- or two-page summary to print or share: medicines, allergies, conditions, latest results,
              vitals, appointments and who to call. Or a read-only copy by QR code or link, for a doctor to
              open on their own screen.
            </p>
            <div className="mt-3 flex flex-wrap gap-3">
              <Link to="/visit-summary" className={buttonClass('secondary')}>
                <FileText aria-hidden="true" className="h-5 w-5" />
                Visit summary
              </Link>
              <Link to="/share-links" className={buttonClass('secondary')}>
                <QrCode aria-hidden="true" className="h-5 w-5" />
                Share by link
              </Link>
            </div>
          </Card>
        </>
      )}
    </>
  );
}
