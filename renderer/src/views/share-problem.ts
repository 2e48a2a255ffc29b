// Why Share cannot go yet, in one sentence the sheet shows above its buttons: the first thing the
// person has to fix, checked in the order they meet it (files, destination, thread, empty files).
import { baseName } from '../format';

/** Slack refuses an empty file: the person decides before Share, not after a failure. */
export function emptyQuestion(empties: readonly string[], sendEmpty: boolean): string | null {
  if (empties.length === 0 || sendEmpty) return null;
  const what =
    empties.length === 1
      ? `${baseName(empties[0]!)} is empty (0 bytes)`
      : `${empties.length} files are empty (0 bytes)`;
  return `${what}, and Slack refuses empty files.`;
}

export function shareProblem(sheet: {
  mode: 'preset' | 'channels';
  paths: number;
  files: number;
  hasWorkspace: boolean;
  channels: number;
  thread: string;
  empties: number;
  emptyQuestion: string | null;
}): string | null {
  const byPreset = sheet.mode === 'preset';
  if (sheet.paths === 0) return 'Add at least one file.';
  if (sheet.files === 0) {
    return sheet.paths === 1
      ? 'This cannot be shared (the reason is beside it): remove it, or add files.'
      : 'None of these can be shared (the reasons are beside them): remove them, or add files.';
  }
  if (!sheet.hasWorkspace) return byPreset ? 'Choose a preset.' : 'Choose a workspace.';
  if (sheet.channels === 0) {
    return byPreset
      ? 'This preset has no channels; edit it in Presets.'
      : 'Choose at least one channel.';
  }
  if (sheet.thread.trim() !== '' && sheet.channels > 1) {
    return byPreset
      ? `A reply in a thread goes to one channel, and this preset has ${sheet.channels}.`
      : 'A reply in a thread goes to one channel: keep just one.';
  }
  if (sheet.emptyQuestion) {
    return `${sheet.emptyQuestion} Leave ${sheet.empties === 1 ? 'it' : 'them'} out, or share anyway.`;
  }
  return null;
}
