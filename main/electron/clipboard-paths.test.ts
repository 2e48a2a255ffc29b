import { describe, expect, it } from 'vitest';
import { type ClipboardLike, osFormat, readClipboardFiles } from './clipboard-paths';

function clipboard(formats: Record<string, string | Buffer>, text = ''): ClipboardLike {
  return {
    has: async (type) => type in formats,
    read: async () => [
      {
        types: Object.keys(formats),
        getType: async (type) => new Blob([new Uint8Array(Buffer.from(formats[type] ?? ''))]),
      },
    ],
    readText: async () => text,
  };
}

describe('files on the clipboard', () => {
  it('reads a URI list (what Linux file managers and Chromium offer), decoding each URL', async () => {
    const c = clipboard({
      'text/uri-list': '# comment\r\nfile:///home/ana/a%20b.png\r\nfile:///home/ana/%C3%BC.txt\r\n',
    });
    expect(await readClipboardFiles(c, 'linux')).toEqual({
      paths: ['/home/ana/a b.png', '/home/ana/ü.txt'],
      otherText: false,
    });
  });

  it("reads GNOME's copied-files list", async () => {
    const c = clipboard({
      [osFormat('x-special/gnome-copied-files')]: 'copy\nfile:///tmp/x.txt\nfile:///tmp/y.txt',
    });
    expect((await readClipboardFiles(c, 'linux')).paths).toEqual(['/tmp/x.txt', '/tmp/y.txt']);
  });

  it("reads Explorer's first file name (UTF-16)", async () => {
    const name = Buffer.from('C:\\Users\\Ana\\Bilder\\Größe.png\0\0', 'utf16le');
    const c = clipboard({ [osFormat('FileNameW')]: name });
    expect((await readClipboardFiles(c, 'win32')).paths).toEqual([
      'C:\\Users\\Ana\\Bilder\\Größe.png',
    ]);
  });

  it("reads Finder's file URL", async () => {
    const c = clipboard({
      [osFormat('public.file-url')]: 'file:///Users/ana/Desktop/Screen%20Shot.png',
    });
    expect((await readClipboardFiles(c, 'darwin')).paths).toEqual([
      '/Users/ana/Desktop/Screen Shot.png',
    ]);
  });

  it('takes text that is only absolute paths or file URLs', async () => {
    expect(
      (await readClipboardFiles(clipboard({}, '/srv/a.txt\n/srv/b.txt\n'), 'linux')).paths,
    ).toEqual(['/srv/a.txt', '/srv/b.txt']);
    expect((await readClipboardFiles(clipboard({}, 'file:///srv/c.txt'), 'linux')).paths).toEqual([
      '/srv/c.txt',
    ]);
  });

  it('does not share other text, and says there was some', async () => {
    expect(await readClipboardFiles(clipboard({}, 'Meeting notes: /srv/a.txt'), 'linux')).toEqual({
      paths: [],
      otherText: true,
    });
    expect(
      await readClipboardFiles(clipboard({ 'text/uri-list': 'https://example.com/x' }), 'linux'),
    ).toEqual({
      paths: [],
      otherText: false,
    });
    expect(await readClipboardFiles(clipboard({}), 'linux')).toEqual({
      paths: [],
      otherText: false,
    });
  });
});
