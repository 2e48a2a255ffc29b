import { describe, expect, it } from 'vitest';
import { escapeXml, niceCeiling, renderSvg } from './plot';

describe('niceCeiling', () => {
  it('rounds an axis up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceCeiling(0.53)).toBe(1);
    expect(niceCeiling(1.7)).toBe(2);
    expect(niceCeiling(2.2)).toBe(2.5);
    expect(niceCeiling(38)).toBe(50);
    expect(niceCeiling(150)).toBe(200);
  });
});

describe('renderSvg', () => {
  it('writes each value on its bar, marks a failed client, and escapes labels', () => {
    const svg = renderSvg(
      [
        {
          title: 'Time <one file>',
          unit: 's',
          digits: 2,
          groups: [
            {
              label: '1 GiB',
              bars: [
                { tool: 'trayshare', value: 1.234 },
                { tool: 'slack-sdk-v2', value: Number.NaN },
              ],
            },
          ],
        },
      ],
      'machine & date',
    );
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('>1.23</text>');
    expect(svg).toContain('>failed</text>');
    expect(svg).toContain('Time &lt;one file&gt;');
    expect(svg).toContain('machine &amp; date');
    expect(escapeXml('"a"')).toBe('&quot;a&quot;');
  });
});
