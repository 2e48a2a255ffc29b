// `<exe> --share …` as desktop entries start it: the deb's entry uses %U (files and trayshare:
// links), which a launcher may fill with paths or file: URLs (Desktop Entry spec, "The Exec key").
import { describe, expect, it } from 'vitest';
import { sharePathsFromArgv } from './share-argv';

// POSIX paths: the desktop entries these arguments come from are Linux's.
describe.skipIf(process.platform === 'win32')('the paths after --share', () => {
  it('reads plain paths, file: URLs and relative paths, and leaves a set-up link to its handler', () => {
    const argv = [
      '/opt/Trayshare/trayshare',
      '--share',
      '/home/ann/report final.pdf',
      'file:///home/ann/caf%C3%A9%20menu.txt',
      'notes.txt',
      'trayshare://setup?base_url=https%3A%2F%2Fslack.example&name=Team',
      '--original-process-start-time=1',
    ];
    expect(sharePathsFromArgv(argv, '/home/ann/Desktop')).toEqual([
      '/home/ann/report final.pdf',
      '/home/ann/café menu.txt',
      '/home/ann/Desktop/notes.txt',
    ]);
  });

  it('takes everything after -- as a path, a file:-looking name included', () => {
    expect(sharePathsFromArgv(['x', '--share', '--', 'file://odd', '--x'], '/w')).toEqual([
      '/w/file:/odd',
      '/w/--x',
    ]);
  });
});
