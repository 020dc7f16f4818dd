import { useId } from 'react';

// A small set of choices side by side (a unit, fasting or not, a chart's period): native radio buttons, so
// arrows move between them and a screen reader says "2 of 3", each in a label at least 44 px high.

type Props<Value extends string> = {
  legend: string;
  /** Hide the legend visually (it still names the group). */
  hideLegend?: boolean;
  options: readonly { value: Value; label: string }[];
  value: Value;
  onChange: (value: Value) => void;
  name?: string;
};

export function ChoiceGroup<Value extends string>({
  legend,
  hideLegend = false,
  options,
  value,
  onChange,
  name,
}: Props<Value>) {
  const generated = useId();
  return (
    <fieldset className="mb-4 min-w-0">
      <legend className={hideLegend ? 'sr-only' : 'mb-1 text-small font-medium text-text'}>{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label
            key={option.value}
            className={`inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center gap-2 rounded-control border px-3 text-base focus-within:ring-2 focus-within:ring-focus ${
              option.value === value
                ? 'border-primary bg-primary-soft font-semibold text-primary-strong'
                : 'border-border-strong bg-surface text-text'
            }`}
          >
            <input
              type="radio"
              name={name ?? generated}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              className="h-4 w-4 accent-current focus:outline-none"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
