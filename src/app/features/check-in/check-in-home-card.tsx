import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  CHECK_IN_TEXTS,
  historyOf,
  withoutMoodScreening,
  type CheckInAnswer,
  type CheckInRecord,
} from '../../../domain/check-in';
import { questionToAsk } from '../../../domain/check-in-steps';
import { deviceDay } from '../../../domain/clock';
import { hasUserDb, userDb } from '../../../local/db';
import {
  answerCheckIn,
  checkInOf,
  moodScreeningShared,
  resetCheckIn,
  skipCheckIn,
  type StepResult,
} from '../../../local/check-in';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { toastLater } from '../../ui/toast-later';
import { useOnline } from '../../ui/use-online';
import { useSession } from '../../shell/use-session';
import { CheckInQuestionView } from './check-in-question';

// Home's check-in card: today's check-in, read live from the replica. The patient
// answers it here one question at a time, with or without a signal (each answer is queued and replays);
// a caregiver sees how far the patient got and what they said, and never answers for them.

/** The day's check-in on this device, kept live; undefined while the first read runs. */
export function useCheckIn(patientId: string, day: string): CheckInRecord | undefined {
  return useLiveQuery(
    async () => (hasUserDb() ? checkInOf(userDb(), patientId, day) : undefined),
    [patientId, day],
  );
}

export function CheckInHomeCard({ patientId }: { patientId: string }) {
  const session = useSession();
  const day = deviceDay();
  const record = useCheckIn(patientId, day);
  if (!record) return <p className="text-muted">Opening today’s check-in...</p>;
  return session?.role === 'Caregiver' ? (
    <CaregiverView record={record} patientId={patientId} />
  ) : (
    <PatientCheckIn record={record} patientId={patientId} day={day} />
  );
}

function AnswersSoFar({ record }: { record: CheckInRecord }) {
  const history = historyOf(record.answers);
  if (history.length === 0) return null;
  return (
    <dl className="mb-3 grid gap-1 text-sm" data-testid="check-in-answers">
      {history.map((entry) => (
        <div key={entry.question_id} className="min-w-0">
          <dt className="text-muted">{entry.prompt}</dt>
          <dd className="font-semibold text-text">{entry.answer_text}</dd>
        </div>
      ))}
    </dl>
  );
}

function PatientCheckIn({
  record,
  patientId,
  day,
}: {
  record: CheckInRecord;
  patientId: string;
  day: string;
}) {
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmingRestart, setConfirmingRestart] = useState(false);
  const question = questionToAsk(record);

  async function take(step: () => Promise<StepResult>) {
    setBusy(true);
    setProblem(null);
    try {
      const result = await step();
      if (!result.ok) setProblem(result.message);
      else if (result.record.status !== record.status && result.record.status !== 'in_progress') {
        const text = result.record.status === 'completed' ? CHECK_IN_TEXTS.completed : CHECK_IN_TEXTS.skipped;
        toastLater((toast) => toast.success(text));
      }
    } catch {
      setProblem('Your answer could not be saved on this device. Please try again.');
    } finally {
      setBusy(false);
    }
  }
  const answer = (value: CheckInAnswer) => {
    if (question) void take(() => answerCheckIn(userDb(), patientId, day, question.id, value));
  };

  return (
    <div data-testid="check-in" data-status={record.status}>
      {record.status === 'completed' ? (
        <p className="mb-3 text-text">{CHECK_IN_TEXTS.completed}</p>
      ) : record.status === 'skipped' ? (
        <p className="mb-3 text-text">{CHECK_IN_TEXTS.skipped}</p>
      ) : record.answers.length === 0 ? (
        <p className="mb-3 text-muted">A few short questions about how you are today. It takes a minute.</p>
      ) : null}
      <AnswersSoFar record={record} />
      {question ? <CheckInQuestionView question={question} onAnswer={answer} busy={busy} /> : null}
      {problem ? (
        <p role="alert" className="mt-3 rounded-control bg-danger-soft p-3 text-danger-strong">
          {problem}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {record.status === 'in_progress' ? (
          <Button
            variant="ghost"
            disabled={busy}
            onClick={() => void take(() => skipCheckIn(userDb(), patientId, day))}
          >
            Skip today
          </Button>
        ) : (
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() =>
              // Starting again erases the day's answers: asked first when there are any.
              record.answers.length > 0
                ? setConfirmingRestart(true)
                : void take(() => resetCheckIn(userDb(), patientId, day))
            }
          >
            {record.status === 'skipped' ? 'Check in now' : 'Start again'}
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirmingRestart}
        title="Start today’s check-in again?"
        message="Your answers of today are replaced by the new ones. This cannot be undone."
        confirmLabel="Start again"
        onConfirm={() => {
          setConfirmingRestart(false);
          void take(() => resetCheckIn(userDb(), patientId, day));
        }}
        onClose={() => setConfirmingRestart(false)}
      />
      {!online ? (
        <p className="mt-2 text-sm text-muted">
          You are offline. Your answers are saved on this device and sent when you are back online.
        </p>
      ) : null}
    </div>
  );
}

/**
 * What a caregiver sees of the day: its status and the answers, without the mood screening's unless the
 * patient shares it (the server leaves them out then; a device that still holds older ones shows none).
 */
function CaregiverView({ record, patientId }: { record: CheckInRecord; patientId: string }) {
  const shared = useLiveQuery(
    async () => (hasUserDb() ? moodScreeningShared(userDb(), patientId) : false),
    [patientId],
  );
  const shown = shared === true ? record : { ...record, answers: withoutMoodScreening(record.answers) };
  const status =
    record.status === 'completed'
      ? 'The patient completed today’s check-in.'
      : record.status === 'skipped'
        ? 'The patient skipped today’s check-in.'
        : record.answers.length > 0
          ? 'The patient has started today’s check-in.'
          : 'The patient has not checked in yet today.';
  return (
    <div data-testid="check-in" data-status={record.status}>
      <p className="mb-3 text-text">{status}</p>
      <AnswersSoFar record={shown} />
    </div>
  );
}
