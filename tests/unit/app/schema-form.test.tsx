import { describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { loadSchema, useSchemaForm } from '../../../src/app/ui/use-schema-form';

// The sign-in form paints before Zod and its schema arrive: a submit must wait for them and judge the
// values, never send unchecked ones or drop the person's typing.

const loginSchema = loadSchema(
  () => import('../../../src/domain/auth'),
  (module) => module.loginBodySchema,
);

describe('a form whose schema loads after the first paint', () => {
  it('judges a submit made before the schema is there, once it is', async () => {
    const { result } = renderHook(() =>
      useSchemaForm(loginSchema, { email: 'not-an-address', password: '' }),
    );
    let checked: unknown = 'unset';
    await act(async () => {
      checked = await result.current.validateReady();
    });
    expect(checked).toBeNull();
    expect(result.current.field('email').error).toBeTruthy();
    expect(result.current.values.email).toBe('not-an-address');
  });

  it('returns the parsed values when they are valid', async () => {
    const { result } = renderHook(() =>
      useSchemaForm(loginSchema, { email: 'pat@example.com', password: 'Juniper-Lantern-58' }),
    );
    let checked: unknown = null;
    await act(async () => {
      checked = await result.current.validateReady();
    });
    expect(checked).toEqual({ email: 'pat@example.com', password: 'Juniper-Lantern-58' });
  });

  it('shows errors as the person types once the schema has loaded', async () => {
    const { result } = renderHook(() => useSchemaForm(loginSchema, { email: '', password: '' }));
    await waitFor(() => expect(result.current.errors.email).toBeTruthy());
    act(() => result.current.field('email').onChange('pat@example.com'));
    expect(result.current.errors.email).toBeUndefined();
  });

  it('says so when the schema cannot be loaded, and tries again on the next submit', async () => {
    let attempts = 0;
    const flaky = () => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('offline')) : loginSchema();
    };
    const { result } = renderHook(() => useSchemaForm(flaky, { email: 'pat@example.com', password: 'x' }));
    await waitFor(() => expect(attempts).toBe(1));
    let checked: unknown = null;
    await act(async () => {
      checked = await result.current.validateReady();
    });
    expect(checked).toEqual({ email: 'pat@example.com', password: 'x' });
    expect(attempts).toBe(2);
  });
});
