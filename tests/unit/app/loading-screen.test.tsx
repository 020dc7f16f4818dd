import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { LoadingScreen } from '../../../src/app/ui/loading-screen';

describe('LoadingScreen', () => {
  it("shows 'Checking your health data...' as a status while screens load", () => {
    render(<LoadingScreen />);
    expect(screen.getByRole('status').textContent).toBe('Checking your health data...');
  });
});
