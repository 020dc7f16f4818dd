import { describe, expect, it } from 'vitest';
import { partialDateOfText } from '../../../src/domain/partial-date';

// A history date as a person types it: a year, a month or a day, in the words they would use.

describe('partialDateOfText', () => {
  it('reads a month as people write it', () => {
    for (const typed of [
      'March 2015',
      'march 2015',
      'Mar 2015',
      'Mar. 2015',
      'March, 2015',
      '3/2015',
      '03/2015',
      '2015/03',
    ])
      expect(partialDateOfText(typed), typed).toBe('2015-03');
  });

  it('reads a day, month first as in the US, or day first with the month in words', () => {
    for (const typed of ['March 5, 2015', 'March 5th 2015', '5 March 2015', '3/5/2015', '03-05-2015'])
      expect(partialDateOfText(typed), typed).toBe('2015-03-05');
  });

  it('keeps the stored forms and leaves what it cannot read as typed, for the field to refuse', () => {
    expect(partialDateOfText(' 2015 ')).toBe('2015');
    expect(partialDateOfText('2015-03')).toBe('2015-03');
    expect(partialDateOfText('2015-03-05')).toBe('2015-03-05');
    expect(partialDateOfText('Marchish 2015')).toBe('Marchish 2015');
    expect(partialDateOfText('13/2015')).toBe('13/2015');
    expect(partialDateOfText('last spring')).toBe('last spring');
    expect(partialDateOfText('Ma 2015')).toBe('Ma 2015');
  });
});
