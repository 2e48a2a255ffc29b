import { describe, expect, it } from 'vitest';
import { formatLimit, formatOverLimit } from '../../main/portable/format-bytes';
import {
  baseName,
  formatBytes,
  formatDuration,
  formatSpeed,
  messagesSummary,
  shareSummary,
} from './format';

describe('shareSummary', () => {
  it('names channels by name (an ID only where no name is known), the workspace, and whether a comment goes along', () => {
    expect(
      shareSummary({
        files: 3,
        channels: [{ id: 'C0DESIGN', label: 'design-review' }, { id: 'C0GENERAL' }],
        workspace: 'Acme',
        comment: true,
      }),
    ).toBe('3 files → #design-review, C0GENERAL in Acme, with comment');
  });

  it('says when no channel is chosen yet and counts one file in the singular', () => {
    expect(shareSummary({ files: 1, channels: [], workspace: 'Acme', comment: false })).toBe(
      '1 file → no channel yet in Acme, no comment',
    );
  });

  it('says how many picked paths are left out', () => {
    expect(
      shareSummary({ files: 2, leftOut: 1, channels: [], workspace: 'Acme', comment: false }),
    ).toBe('2 files (1 left out) → no channel yet in Acme, no comment');
  });

  it('shortens long channel lists', () => {
    const channels = Array.from({ length: 8 }, (_, i) => ({ id: `C${i}` }));
    expect(shareSummary({ files: 2, channels, workspace: 'A', comment: false })).toBe(
      '2 files → C0, C1, C2, C3, C4 and 3 more in A, no comment',
    );
  });

  it('does not double a # the person typed into a label', () => {
    expect(
      shareSummary({
        files: 1,
        channels: [{ id: 'C1', label: '#ops' }],
        workspace: 'A',
        comment: false,
      }),
    ).toBe('1 file → #ops in A, no comment');
  });
});

describe('formatLimit and formatOverLimit', () => {
  it('never states a limit above what it is, and a refused size always above its limit', () => {
    expect(formatLimit(1024 ** 3)).toBe('1.07 GB');
    expect(formatLimit(1024)).toBe('1.0 KB');
    expect(formatLimit(1_000_000_000)).toBe('1.0 GB');
    expect(formatOverLimit(1_100_000_000, 1024 ** 3)).toEqual({ size: '1.1 GB', limit: '1.07 GB' });
    expect(formatOverLimit(64 * 1024 ** 2 + 1, 64 * 1024 ** 2)).toEqual({
      size: '67.11 MB',
      limit: '67 MB',
    });
  });
});

describe('formatBytes', () => {
  it('uses decimal units with one decimal below ten', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(999_999)).toBe('1.0 MB');
    expect(formatBytes(999_400)).toBe('999 KB');
    expect(formatBytes(64 * 1024 * 1024)).toBe('67 MB');
    expect(formatBytes(2_500_000_000)).toBe('2.5 GB');
  });
});

describe('formatDuration', () => {
  it('rounds up so a countdown never shows zero while still waiting', () => {
    expect(formatDuration(1)).toBe('1 s');
    expect(formatDuration(59_001)).toBe('1 min');
    expect(formatDuration(61_000)).toBe('1 min 1 s');
    expect(formatDuration(3_600_000 + 4 * 60_000)).toBe('1 h 4 min');
  });
});

describe('baseName', () => {
  it('takes the last segment of POSIX and Windows paths', () => {
    expect(baseName('/home/ann/report.pdf')).toBe('report.pdf');
    expect(baseName('C:\\Users\\ann\\report.pdf')).toBe('report.pdf');
    expect(baseName('/home/ann/folder/')).toBe('folder');
  });
});

describe('formatSpeed', () => {
  it('never reads 1000 KB/s', () => {
    expect(formatSpeed(999_800)).toBe('1.0 MB/s');
  });
});

describe('messagesSummary', () => {
  it('files.upload: one message per file, the comment on the first', () => {
    expect(messagesSummary(1, true)).toBe('One message');
    expect(messagesSummary(3, true)).toBe('3 messages, the comment on the first');
    expect(messagesSummary(3, false)).toBe('3 messages');
  });

  it('external protocol: up to 10 files per message, each with the comment', () => {
    expect(messagesSummary(3, true, 'external')).toBe('3 files, one message');
    expect(messagesSummary(10, false, 'external')).toBe('10 files, one message');
    expect(messagesSummary(11, true, 'external')).toBe('11 files, 2 messages, the comment on each');
    expect(messagesSummary(11, false, 'external')).toBe('11 files, 2 messages');
  });
});
