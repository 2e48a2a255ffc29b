// The session bus address as dbus-next can open it (the portal itself: test/capture).
import { describe, expect, it } from 'vitest';
import { usableBusAddress } from './portal';

describe('the session bus address', () => {
  it('opens an abstract socket through Node (dbus-next would need its native usocket)', () => {
    expect(usableBusAddress('unix:abstract=/tmp/dbus-Ab12,guid=0f0f')).toBe(
      'unix:socket=\u0000/tmp/dbus-Ab12',
    );
  });

  it('keeps a path address, takes the first of a list, and has none without one', () => {
    expect(usableBusAddress('unix:path=/run/user/1000/bus')).toBe('unix:path=/run/user/1000/bus');
    expect(usableBusAddress('unix:path=/a;unix:abstract=/b')).toBe('unix:path=/a');
    expect(usableBusAddress(undefined)).toBeUndefined();
    expect(usableBusAddress('')).toBeUndefined();
  });
});
