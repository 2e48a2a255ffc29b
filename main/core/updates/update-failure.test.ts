// What each failure electron-updater reports means for people. The offline, checksum and feed
// cases also run for real in test/updates/feed.test.ts; signatures can only fail on Windows
// (PowerShell's Get-AuthenticodeSignature) and macOS (Squirrel.Mac), so their errors are copied
// here from electron-updater 6.8.10's NsisUpdater.js and Squirrel.Mac's messages.
import { describe, expect, it } from 'vitest';
import { describeUpdateFailure, failureLogLine } from './update-failure';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('update failures', () => {
  it('offline, in Node and in Chromium words', () => {
    expect(
      describeUpdateFailure(coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED')),
    ).toEqual({ kind: 'offline', why: 'offline' });
    expect(describeUpdateFailure(new Error('net::ERR_INTERNET_DISCONNECTED')).kind).toBe('offline');
    expect(describeUpdateFailure(new Error('net::ERR_NAME_NOT_RESOLVED')).kind).toBe('offline');
  });

  it('a bad signature, on Windows and on macOS', () => {
    const windows = coded(
      'New version 1.2.0 is not signed by the application owner: publisherNames: Trayshare',
      'ERR_UPDATER_INVALID_SIGNATURE',
    );
    expect(describeUpdateFailure(windows)).toEqual({
      kind: 'signature',
      why: 'the update was not signed as this app is',
    });
    expect(
      describeUpdateFailure(new Error('Could not get code signature for running application')).kind,
    ).toBe('signature');
  });

  it('logs one line: the code and the first line, never the rest', () => {
    const error = coded(
      'Cannot parse update info from latest.yml: YAMLException\n<!doctype html><html>…',
      'ERR_UPDATER_INVALID_UPDATE_INFO',
    );
    expect(failureLogLine(error)).toBe(
      'ERR_UPDATER_INVALID_UPDATE_INFO: Cannot parse update info from latest.yml: YAMLException',
    );
  });
});
