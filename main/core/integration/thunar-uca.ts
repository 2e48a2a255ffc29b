// Editing Thunar's uca.xml without a full XML parser: Thunar writes one <action> element per
// custom action inside <actions>, never nested, with text escaped; so actions can be found,
// added and removed as text and everything else in the file stays byte for byte.

export const EMPTY_UCA = '<?xml version="1.0" encoding="UTF-8"?>\n<actions>\n</actions>\n';

export class UcaFormatError extends Error {
  override name = 'UcaFormatError';
}

const actionBlocks = /[ \t]*<action>[\s\S]*?<\/action>[ \t]*\r?\n?/g;

const hasUniqueId = (block: string, uniqueId: string) =>
  block.includes(`<unique-id>${uniqueId}</unique-id>`);

function checkFormat(xml: string): void {
  if (!/<actions\s*\/>/.test(xml) && !(/<actions\s*>/.test(xml) && xml.includes('</actions>'))) {
    throw new UcaFormatError('uca.xml holds no <actions> element');
  }
}

/** The <action> element with this unique id, as written, or null. */
export function findUcaAction(xml: string, uniqueId: string): string | null {
  for (const match of xml.matchAll(actionBlocks)) {
    if (hasUniqueId(match[0], uniqueId)) return match[0].trim();
  }
  return null;
}

/** The file without the actions that have this unique id. */
export function withoutUcaAction(xml: string, uniqueId: string): string {
  checkFormat(xml);
  return xml.replace(actionBlocks, (block) => (hasUniqueId(block, uniqueId) ? '' : block));
}

/** The file with `action` as the last action, replacing any action with the same unique id. */
export function withUcaAction(xml: string, uniqueId: string, action: string): string {
  const rest = withoutUcaAction(xml, uniqueId).replace(/<actions\s*\/>/, '<actions>\n</actions>');
  const end = rest.lastIndexOf('</actions>');
  const before = rest.slice(0, end);
  const separator = before.endsWith('\n') ? '' : '\n';
  return `${before}${separator}${action}\n${rest.slice(end)}`;
}
