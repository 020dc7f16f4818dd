import { describe, expect, it } from 'vitest';
import { computeFlag } from '../../../src/domain/lab-extraction-review';

// A value exactly at a limit of its reference range is inside it: a range is printed as the values a lab
// calls normal, ends included ('70-99' holds 70 and 99). Only a range written with '<' or '>' leaves its
// limit out ('<200': 200 is high).

describe('computeFlag at the limits of a range', () => {
  it('does not flag a value exactly at either end of a range', () => {
    expect(computeFlag('70', '70-99')).toBe('');
    expect(computeFlag('99', '70-99')).toBe('');
    expect(computeFlag('3.5', '3.5 - 5.1')).toBe('');
    expect(computeFlag('5.1', '3.5 - 5.1')).toBe('');
    expect(computeFlag('200', '<=200')).toBe('');
    expect(computeFlag('40', '>=40')).toBe('');
  });

  it('flags a value just past either end', () => {
    expect(computeFlag('69.9', '70-99')).toBe('L');
    expect(computeFlag('99.1', '70-99')).toBe('H');
    expect(computeFlag('3.4', '3.5 - 5.1')).toBe('L');
    expect(computeFlag('5.2', '3.5 - 5.1')).toBe('H');
  });

  it('flags a value at the limit of a range that leaves its limit out', () => {
    expect(computeFlag('200', '<200')).toBe('H');
    expect(computeFlag('199', '<200')).toBe('');
    expect(computeFlag('40', '>40')).toBe('L');
    expect(computeFlag('41', '>40')).toBe('');
  });

  it('says it cannot tell when the value or the range is not a number', () => {
    expect(computeFlag('Negative', '70-99')).toBeNull();
    expect(computeFlag('80', 'see note')).toBeNull();
  });
});
