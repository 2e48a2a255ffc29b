import { describe, expect, it } from 'vitest';
import { plainError } from './bridge';

describe('plainError', () => {
  it('drops the wrapper Electron puts around a rejected call', () => {
    const e = new Error(
      "Error invoking remote method 'trayshare:share': RefusedError: Acme: No token: add one in Settings.",
    );
    expect(plainError(e)).toBe('Acme: No token: add one in Settings.');
  });

  it('keeps plain messages and says something when there is none', () => {
    expect(plainError(new Error('The preset no longer exists.'))).toBe(
      'The preset no longer exists.',
    );
    expect(plainError(undefined)).toBe('Something went wrong, and no reason was given.');
  });
});
