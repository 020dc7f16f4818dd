import { useEffect, useId, useRef, useState } from 'react';
import type { CheckInAnswer, CheckInQuestion } from '../../../domain/check-in';
import { speak } from '../../../local/speech';
import { Button } from '../../ui/button';

// One question of the check-in, asked the way a thumb answers it: a choice is a column of buttons (one tap
// answers), the pain scale a row of numbers, and several answers a list of checkboxes with Continue. The
// question's heading takes the focus when it appears, so a keyboard or screen reader follows the
// conversation without hunting for it.

const optionClass =
  'min-h-11 w-full justify-start text-left sm:w-auto sm:min-w-[10rem] sm:justify-center sm:text-center';

export function CheckInQuestionView({
  question,
  onAnswer,
  busy,
}: {
  question: CheckInQuestion;
  onAnswer: (answer: CheckInAnswer) => void;
  busy: boolean;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Only a question that follows an answer takes the focus (and, with 'Read messages aloud' on, is read
  // aloud, like the conversation it is): on Home's first paint the page stays where the person is.
  const firstQuestion = useRef(question.id);
  const spoken = [question.prompt, question.note ?? ''].join(' ');
  useEffect(() => {
    if (question.id === firstQuestion.current) return;
    heading.current?.focus();
    speak(spoken);
  }, [question.id, spoken]);
  return (
    <fieldset
      aria-labelledby={headingId}
      className="min-w-0"
      data-testid={`check-in-question-${question.id}`}
    >
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="mb-3 text-base font-semibold text-text focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
      >
        {question.prompt}
      </h3>
      {question.note ? (
        <p role="note" className="mb-3 rounded-control bg-warning-soft p-3 text-warning-strong">
          {question.note}
        </p>
      ) : null}
      {question.kind === 'choice' ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {question.options.map((option) => (
            <Button
              key={option.value}
              variant="secondary"
              className={optionClass}
              disabled={busy}
              onClick={() => onAnswer(option.value)}
            >
              {option.label}
            </Button>
          ))}
        </div>
      ) : question.kind === 'scale' ? (
        <ScaleAnswer question={question} onAnswer={onAnswer} busy={busy} />
      ) : (
        <ChoicesAnswer key={question.id} question={question} onAnswer={onAnswer} busy={busy} />
      )}
    </fieldset>
  );
}

function ScaleAnswer({
  question,
  onAnswer,
  busy,
}: {
  question: Extract<CheckInQuestion, { kind: 'scale' }>;
  onAnswer: (answer: CheckInAnswer) => void;
  busy: boolean;
}) {
  const values = Array.from({ length: question.max - question.min + 1 }, (_, index) => question.min + index);
  return (
    <>
      <div className="grid grid-cols-6 gap-2 sm:flex sm:flex-wrap">
        {values.map((value) => (
          <Button
            key={value}
            variant="secondary"
            className="min-w-11 px-0"
            disabled={busy}
            aria-label={
              value === question.min
                ? `${value}, ${question.min_label}`
                : value === question.max
                  ? `${value}, ${question.max_label}`
                  : String(value)
            }
            onClick={() => onAnswer(value)}
          >
            {value}
          </Button>
        ))}
      </div>
      <p className="mt-2 flex justify-between gap-4 text-sm text-muted">
        <span>
          {question.min}: {question.min_label}
        </span>
        <span className="text-right">
          {question.max}: {question.max_label}
        </span>
      </p>
    </>
  );
}

function ChoicesAnswer({
  question,
  onAnswer,
  busy,
}: {
  question: Extract<CheckInQuestion, { kind: 'multi_choice' }>;
  onAnswer: (answer: CheckInAnswer) => void;
  busy: boolean;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const exclusive = question.exclusive_option;
  const toggle = (value: string, on: boolean) =>
    setChosen((current) => {
      if (!on) return current.filter((item) => item !== value);
      // 'None of these' stands alone: choosing it clears the others, and choosing another clears it.
      if (value === exclusive) return [value];
      return [...current.filter((item) => item !== exclusive), value];
    });
  return (
    <>
      <ul className="flex flex-col gap-1">
        {question.options.map((option) => (
          <li key={option.value}>
            <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-control px-2 hover:bg-surface-muted">
              <input
                type="checkbox"
                className="h-5 w-5 shrink-0 accent-primary"
                checked={chosen.includes(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
              {option.label}
            </label>
          </li>
        ))}
      </ul>
      <Button className="mt-3" disabled={busy || chosen.length === 0} onClick={() => onAnswer(chosen)}>
        Continue
      </Button>
    </>
  );
}
