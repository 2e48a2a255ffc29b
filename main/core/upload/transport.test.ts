import { describe, expect, it } from 'vitest';
import { TransportError } from './transport';

describe('TransportError', () => {
  it('carries its code and cause and is recognisable after a catch', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    let caught: unknown;
    try {
      throw new TransportError('connection_refused', '127.0.0.1:1 refused the connection.', {
        cause,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TransportError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({
      name: 'TransportError',
      code: 'connection_refused',
      message: '127.0.0.1:1 refused the connection.',
      cause,
    });
  });
});
