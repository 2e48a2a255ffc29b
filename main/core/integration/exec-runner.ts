import { execFile } from 'node:child_process';
import type { ProgramPath } from '../system-programs';
import type { CommandRunner } from './types';

/** Runs a program without a shell; a failed exit is a result, not an exception. */
export const execFileRunner: CommandRunner = (file: ProgramPath, args) =>
  new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { windowsHide: true, encoding: 'utf8', maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: stderr || (error && !stderr ? error.message : '') });
      },
    );
  });
