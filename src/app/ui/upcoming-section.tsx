import { PageTitle, Card } from './page';

/** A section whose screen arrives with a later feature: its title and an honest note, never fake data. */
export function UpcomingSection({ title }: { title: string }) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <Card>
        <p className="text-slate-700">This part of Kincare is on its way. Nothing is stored here yet.</p>
      </Card>
    </>
  );
}
