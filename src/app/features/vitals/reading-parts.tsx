import { ArrowDown, ArrowUp } from 'lucide-react';
import { displayUnit, formatReading, type Vital } from '../../../domain/vitals';
import { Badge } from '../../ui/badge';
import type { VitalSettings } from './vital-settings';

// How a reading is shown wherever it is (the Vitals screen, Home): its value always with its unit, in the
// person's unit and, when it was entered in another, in that one too; outside the target, said in words.

/** A reading outside the target, in words (the arrow and the colour only help). */
export function FlagBadge({ flag }: { flag: string | null }) {
  if (!flag) return null;
  return (
    <Badge tone="warning" icon={flag.startsWith('Low') ? <ArrowDown /> : <ArrowUp />}>
      {flag}
    </Badge>
  );
}

/** A reading's value in the person's unit; when it was entered in another, that one too. */
export function ReadingValue({ reading, settings }: { reading: Vital; settings: VitalSettings }) {
  const unit = displayUnit(reading.kind, settings.units);
  return (
    <>
      <p className="text-heading text-text" data-testid="reading-value">
        {formatReading(reading, unit)}
      </p>
      {unit !== reading.unit ? (
        <p className="text-small text-muted">
          Entered as {formatReading(reading, reading.unit as typeof unit)}
        </p>
      ) : null}
    </>
  );
}
