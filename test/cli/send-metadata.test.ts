// `trayshare send` leaves photos' and videos' hidden details at home: the built CLI against the
// reference service over real HTTP, with ExifTool judging the bytes the service received.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegSample, privateTags, tagsOf, topLevelBox, videoSample } from '../metadata/samples';
import { type AcmeWorkspace, closeAcme, loggedInAcme } from './acme-workspace';
import { jsonLines, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
let acme: AcmeWorkspace;

beforeAll(async () => {
  acme = await loggedInAcme('trayshare-cli-metadata-');
});
afterAll(async () => {
  await closeAcme(acme);
});

/** The bytes the service holds for a delivered line's file id. */
const received = (id: unknown) => readFile(acme.service.storedPath(String(id)));

function direct(protocol: 'files.upload' | 'external', ...args: string[]) {
  return runCli(
    [
      'send',
      '--base-url',
      acme.service.url,
      '--protocol',
      protocol,
      '--channels',
      'C0GENERAL',
      '--json',
      ...args,
    ],
    { env: { ...acme.env, TRAYSHARE_TOKEN: TOKEN }, timeoutMs: 60_000 },
  );
}

describe('trayshare send: photos and videos leave without their location', () => {
  for (const protocol of ['files.upload', 'external'] as const) {
    it(`--base-url, ${protocol}: the service receives no location, serial, owner or thumbnail; pixels and media data unchanged; other files as they are`, async () => {
      const photo = jpegSample(acme.dir, `phone-${protocol}.jpg`);
      const video = videoSample(acme.dir, `phone-${protocol}.mov`);
      const text = join(acme.dir, `notes-${protocol}.txt`);
      await writeFile(text, 'GPS 48.8584 2.2945\n');
      const run = await direct(protocol, photo, video, text);
      expect(run.code).toBe(0);
      const [p, v, t] = jsonLines(run.stdout);
      expect(p).toMatchObject({
        outcome: 'delivered',
        removed: expect.arrayContaining(['location', 'serial number', 'owner name', 'thumbnail']),
      });
      expect(v).toMatchObject({
        outcome: 'delivered',
        removed: expect.arrayContaining(['location']),
      });
      expect(t).not.toHaveProperty('removed');

      const gotPhoto = join(acme.dir, `got-${protocol}.jpg`);
      await writeFile(gotPhoto, await received(p?.id));
      expect(privateTags(gotPhoto)).toEqual([]);
      expect(tagsOf(gotPhoto)['IFD0:Orientation']).toBe('6');
      const pixels = async (path: string) =>
        Buffer.from(jpeg.decode(await readFile(path), { useTArray: true }).data);
      expect((await pixels(gotPhoto)).equals(await pixels(photo))).toBe(true);

      const gotVideo = join(acme.dir, `got-${protocol}.mov`);
      const videoBytes = await received(v?.id);
      await writeFile(gotVideo, videoBytes);
      expect(privateTags(gotVideo)).toEqual([]);
      const mdat = topLevelBox(await readFile(video), 'mdat');
      expect(mdat && topLevelBox(videoBytes, 'mdat')?.equals(mdat)).toBe(true);

      expect(sha256(await received(t?.id))).toBe(sha256(await readFile(text)));
    }, 120_000);
  }

  it('--keep-metadata sends the original bytes (same sha256)', async () => {
    const photo = jpegSample(acme.dir, 'keep.jpg');
    const run = await direct('files.upload', '--keep-metadata', photo);
    expect(run.code).toBe(0);
    const [line] = jsonLines(run.stdout);
    expect(line).not.toHaveProperty('removed');
    expect(sha256(await received(line?.id))).toBe(sha256(await readFile(photo)));
  }, 60_000);

  it('a damaged photo is refused with words, nothing is sent, and the command exits 2; --keep-metadata sends it as it is', async () => {
    const photo = jpegSample(acme.dir, 'damaged.jpg');
    const bytes = await readFile(photo);
    // Cut inside its metadata, before the image data start.
    await writeFile(photo, bytes.subarray(0, 200));
    const before = acme.service.uploads().length;
    for (const protocol of ['files.upload', 'external'] as const) {
      const run = await direct(protocol, photo);
      expect(run.code).toBe(2);
      const [line] = jsonLines(run.stdout);
      expect(line).toMatchObject({ outcome: 'failed', error: 'metadata_unreadable' });
      expect(String(line?.message)).toMatch(
        /damaged\.jpg looks damaged .* cannot be removed safely/,
      );
    }
    expect(acme.service.uploads().length).toBe(before);
    const kept = await direct('files.upload', '--keep-metadata', photo);
    expect(kept.code).toBe(0);
    expect(acme.service.uploads().length).toBe(before + 1);
  }, 90_000);

  it('--workspace (the queue): removed by default and said per file; a damaged photo exits 2 with nothing sent', async () => {
    const photo = jpegSample(acme.dir, 'queued.jpg');
    const run = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--json', photo],
      { env: acme.env, timeoutMs: 60_000 },
    );
    expect(run.code).toBe(0);
    const [line] = jsonLines(run.stdout);
    expect(line).toMatchObject({
      outcome: 'delivered',
      removed: expect.arrayContaining(['location']),
    });
    const got = join(acme.dir, 'got-queued.jpg');
    await writeFile(got, await received(line?.id));
    expect(privateTags(got)).toEqual([]);

    const damaged = join(acme.dir, 'queued-damaged.jpg');
    await writeFile(damaged, (await readFile(photo)).subarray(0, 200));
    const before = acme.service.uploads().length;
    const refused = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--json', damaged],
      { env: acme.env, timeoutMs: 60_000 },
    );
    expect(refused.code).toBe(2);
    expect(jsonLines(refused.stdout)[0]).toMatchObject({ error: 'metadata_unreadable' });
    expect(acme.service.uploads().length).toBe(before);
  }, 120_000);

  it('the keepMetadata preference turns the default off for the queue and --base-url alike', async () => {
    const photo = jpegSample(acme.dir, 'preference.jpg');
    // Without the preference the same photo leaves without its details.
    const before = await direct('files.upload', photo);
    const stripped = jsonLines(before.stdout)[0];
    expect(sha256(await received(stripped?.id))).not.toBe(sha256(await readFile(photo)));
    const config = join(String(acme.env.TRAYSHARE_DATA_DIR), 'config.json');
    const saved = await readFile(config, 'utf8');
    const settings = JSON.parse(saved);
    settings.preferences = { ...settings.preferences, keepMetadata: true };
    await writeFile(config, JSON.stringify(settings));
    try {
      const queued = await runCli(
        ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--json', photo],
        { env: acme.env, timeoutMs: 60_000 },
      );
      const viaQueue = jsonLines(queued.stdout)[0];
      expect(sha256(await received(viaQueue?.id))).toBe(sha256(await readFile(photo)));
      const run = await direct('files.upload', photo);
      const line = jsonLines(run.stdout)[0];
      expect(sha256(await received(line?.id))).toBe(sha256(await readFile(photo)));
    } finally {
      await writeFile(config, saved);
    }
  }, 90_000);
});
