import { describe, expect, it } from 'vitest';
import {
  EMPTY_UCA,
  findUcaAction,
  UcaFormatError,
  withoutUcaAction,
  withUcaAction,
} from './thunar-uca';

// As Thunar itself writes the file (thunar-uca-model.c, thunar_uca_model_save).
const thunarFile = `<?xml version="1.0" encoding="UTF-8"?>
<actions>
<action>
\t<icon>utilities-terminal</icon>
\t<name>Open Terminal Here</name>
\t<unique-id>1700000000000000-1</unique-id>
\t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
\t<description>Example for a custom action</description>
\t<patterns>*</patterns>
\t<startup-notify/>
\t<directories/>
</action>
<action>
\t<icon></icon>
\t<name>Compare &amp; merge</name>
\t<unique-id>1700000000000000-2</unique-id>
\t<command>meld %F</command>
\t<description></description>
\t<patterns>*</patterns>
\t<text-files/>
</action>
</actions>
`;

const ours = (command: string) =>
  `<action>\n\t<name>Share</name>\n\t<unique-id>ours</unique-id>\n\t<command>${command}</command>\n</action>`;

describe("Thunar's uca.xml", () => {
  it('adds the action after the existing ones and keeps them byte for byte', () => {
    const merged = withUcaAction(thunarFile, 'ours', ours('a'));
    expect(merged.startsWith(thunarFile.slice(0, thunarFile.lastIndexOf('</actions>')))).toBe(true);
    expect(merged.endsWith(`${ours('a')}\n</actions>\n`)).toBe(true);
    expect(findUcaAction(merged, 'ours')).toBe(ours('a'));
  });

  it('replaces its own action instead of adding a second one', () => {
    const twice = withUcaAction(
      withUcaAction(thunarFile, 'ours', ours('old')),
      'ours',
      ours('new'),
    );
    expect(twice.match(/<unique-id>ours<\/unique-id>/g)).toHaveLength(1);
    expect(findUcaAction(twice, 'ours')).toBe(ours('new'));
  });

  it('removing the action gives back the file as it was', () => {
    const merged = withUcaAction(thunarFile, 'ours', ours('a'));
    expect(withoutUcaAction(merged, 'ours')).toBe(thunarFile);
    expect(withoutUcaAction(withUcaAction(EMPTY_UCA, 'ours', ours('a')), 'ours')).toBe(EMPTY_UCA);
  });

  it('finds only the action with that exact unique id', () => {
    expect(findUcaAction(thunarFile, '1700000000000000')).toBeNull();
    expect(findUcaAction(thunarFile, '1700000000000000-2')).toContain('meld %F');
  });

  it('accepts an empty <actions/> and refuses a file without <actions>', () => {
    expect(findUcaAction(withUcaAction('<actions/>', 'ours', ours('a')), 'ours')).toBe(ours('a'));
    expect(() => withUcaAction('<?xml version="1.0"?>\n<nonsense/>', 'ours', ours('a'))).toThrow(
      UcaFormatError,
    );
    expect(() => withUcaAction('', 'ours', ours('a'))).toThrow(UcaFormatError);
  });
});
