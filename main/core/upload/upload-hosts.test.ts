// What upload-hosts.json may hold and how it is written, with the real file system: https
// origins on port 443 only (a loopback host aside), in a file only the person can read.
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownUploadHosts, learnUploadHost } from './preconnect';
import { keepUploadHosts, recallUploadHosts } from './upload-hosts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-upload-hosts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('an upload host is kept only when it is https on port 443', () => {
  it.each([
    ['https://learn-1.example', 'https://files.example/upload/v1/abc', 'https://files.example'],
    ['https://learn-2.example', 'https://files.example:443/upload', 'https://files.example'],
    ['https://learn-3.example', 'https://files.example:8443/upload', undefined],
    ['https://learn-4.example', 'http://files.example/upload', undefined],
    ['https://learn-5.example', 'http://files.example:443/upload', undefined],
    ['https://learn-6.example', 'ftp://files.example/upload', undefined],
    // This computer: any https port (the tests' reference service, a local service).
    ['https://learn-7.example', 'https://127.0.0.1:8443/upload', 'https://127.0.0.1:8443'],
    ['https://learn-8.example', 'http://127.0.0.1:8443/upload', undefined],
  ])('learnt from %s: %s → %s', (api, upload, kept) => {
    learnUploadHost(api, upload);
    expect(knownUploadHosts()[api]).toBe(kept);
  });

  it('and only those are read back from the file', async () => {
    const file = join(dir, 'read-back.json');
    await writeFile(
      file,
      JSON.stringify({
        'https://read-1.example': 'https://files.example',
        'https://read-2.example': 'https://files.example:8443',
        'https://read-3.example': 'http://files.example',
        'https://read-4.example': 'http://127.0.0.1:9',
        'https://read-5.example': 'https://files.example/with/a/path',
        'https://read-6.example': 'https://localhost:8443',
      }),
    );
    recallUploadHosts(file);
    const known = knownUploadHosts();
    expect(Object.keys(known).filter((api) => api.startsWith('https://read-'))).toEqual([
      'https://read-1.example',
      'https://read-6.example',
    ]);
  });

  it('an entry the file holds that is not kept is left out when the file is written again', async () => {
    const file = join(dir, 'rewrite.json');
    await writeFile(file, JSON.stringify({ 'https://old.example': 'https://files.example:8443' }));
    learnUploadHost('https://rewrite.example', 'https://files.rewrite.example/u');
    keepUploadHosts(file);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written['https://old.example']).toBeUndefined();
    expect(written['https://rewrite.example']).toBe('https://files.rewrite.example');
  });
});

// Mode bits: Windows has none to check (Node's chmod sets only the write permission there).
describe.skipIf(process.platform === 'win32')('the file is the person’s alone', () => {
  it('is written with mode 0600', async () => {
    const file = join(dir, 'new.json');
    learnUploadHost('https://mode-1.example', 'https://files.mode.example/u');
    keepUploadHosts(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('an older file others could read is narrowed to 0600, also when nothing new is written', async () => {
    const file = join(dir, 'old.json');
    keepUploadHosts(file);
    const before = await readFile(file, 'utf8');
    await chmod(file, 0o644);
    keepUploadHosts(file);
    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
