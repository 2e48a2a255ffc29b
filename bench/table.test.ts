import { describe, expect, it } from 'vitest';
import { formatMarkdownTable, formatTable } from './table';

const table = {
  title: 'One file',
  headers: ['Client', 'Time'],
  numeric: [false, true],
  rows: [
    ['trayshare send', '1.05 s'],
    ['curl -F', '12.50 s'],
  ],
};

describe('formatTable', () => {
  it('lines up columns, numbers on the right', () => {
    expect(formatTable(table).split('\n')).toEqual([
      'One file',
      'Client             Time',
      '--------------  -------',
      'trayshare send   1.05 s',
      'curl -F         12.50 s',
    ]);
  });
  it('counts "×" and "–" as one column each', () => {
    const out = formatTable({
      headers: ['A', 'B'],
      rows: [
        ['1.00×', 'x'],
        ['–', 'y'],
      ],
    });
    expect(out.split('\n')[2]).toBe('1.00×  x');
    expect(out.split('\n')[3]).toBe('–      y');
  });
});

describe('formatMarkdownTable', () => {
  it('pads cells as Biome formats Markdown, numbers on the right, pipes escaped', () => {
    const out = formatMarkdownTable({ ...table, rows: [['a|b', '1 s']] });
    expect(out.split('\n')).toEqual([
      '| Client | Time |',
      '| ------ | ---: |',
      '| a\\|b   |  1 s |',
    ]);
  });
});
