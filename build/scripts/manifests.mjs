// The package managers' files for one release, written from the artifacts it just built:
//   npm run manifests -- --version 1.2.3 --artifacts DIR --out DIR [--repo owner/name]
//                        [--date YYYY-MM-DD] [--mac-notarised]
// DIR holds the release's files as electron-builder names them on a GitHub release (see
// ARTIFACTS); each manifest carries the SHA-256 of the file it installs, read from disk as a
// stream. What a maintainer does with each file: docs/packaging.md.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** electron-builder.yml's appId; the Windows uninstall key and macOS folders are named after it. */
export const APP_ID = 'app.trayshare.desktop';
/** package.json's desktopName without ".desktop": the Flatpak app id and the metainfo id. */
export const DESKTOP_ID = 'app.trayshare.Trayshare';
export const WINGET_ID = 'Trayshare.Trayshare';
/** The newest frozen winget schema (schemas/JSON/manifests/v1.28.0; `latest/` is in development). */
export const WINGET_MANIFEST_VERSION = '1.28.0';
const SUMMARY = "Share files to your team's channels from the tray";
const HOMEPAGE = 'https://trayshare.app';

/**
 * The names electron-builder 26 gives this configuration's artifacts on a GitHub release (no
 * artifactName is set, so its defaults apply; app-builder-lib/out):
 * - dmg: `${productName}-${version}-${arch}.dmg`, the arch left out for x64, the default arch
 *   (dmg-builder/out/dmg.js, expandArtifactNamePattern with skipDefaultArch);
 * - NSIS: `${productName} Setup ${version}.exe` on disk (NsisTarget.installerFilenamePattern);
 *   GitHub names allow no spaces, so the publisher uploads it with the spaces turned into dashes
 *   (platformPackager.computeSafeArtifactNameIfNeeded; GitHubPublisher uses the safe name);
 * - deb: `${name}_${version}_${arch}.deb` with Debian's arch name, amd64 for x64
 *   (FpmTarget: nameFormat, isUseArchIfX64; builder-util getArtifactArchName).
 * `onDisk` is the name in dist/ where it differs, accepted as well.
 */
export function artifactNames(version) {
  return {
    macX64: { name: `Trayshare-${version}.dmg` },
    macArm64: { name: `Trayshare-${version}-arm64.dmg` },
    win: { name: `Trayshare-Setup-${version}.exe`, onDisk: `Trayshare Setup ${version}.exe` },
    deb: { name: `trayshare_${version}_amd64.deb` },
  };
}

/**
 * The key electron-builder's NSIS installer writes under HKCU\...\CurrentVersion\Uninstall,
 * which winget matches as the ProductCode: with no `nsis.guid` set it is the UUID v5 of the
 * appId in electron-builder's own namespace, lower-case, without braces
 * (app-builder-lib NsisTarget: ELECTRON_BUILDER_NS_UUID = 50e065bc-3134-11e6-9bab-38c9862bdaf3,
 * `UUID.v5(appInfo.id, ELECTRON_BUILDER_NS_UUID)`, UNINSTALL_APP_KEY; templates/nsis/multiUser.nsh).
 */
export function nsisProductCode(appId = APP_ID) {
  const namespace = Buffer.from('50e065bc313411e69bab38c9862bdaf3', 'hex');
  const hash = createHash('sha1').update(namespace).update(appId).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** SHA-256 of a file, streamed: installers are hundreds of megabytes. */
export async function sha256File(path) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

const releaseUrl = (repo, version, file) =>
  `https://github.com/${repo}/releases/download/v${version}/${file}`;

/**
 * Homebrew cask for the project's own tap (homebrew-cask takes only apps already known; its
 * Acceptable Casks page). Stanzas, and their order, per Homebrew/brew docs/Cask-Cookbook.md
 * (reviewed 2026-07-18): per-arch url and sha256 through `arch`; `auto_updates true`, which the
 * cookbook asks of an app that downloads and installs its own updates, as Trayshare does;
 * `depends_on macos: :ventura`, the symbol form (the cookbook calls the ">= :x" string form
 * deprecated), because Electron 45 runs on "macOS (Ventura and up)" (electron@45's README,
 * Platform support); `zap trash:` the folders Trayshare leaves: its data (userData, named after
 * productName), its log (app.getPath('logs')), electron-updater's download cache
 * (`${name}-updater`, app-builder-lib AppInfo.updaterCacheDirName), Squirrel.Mac's ShipIt
 * cache, and the appId-named caches, preferences and saved window state macOS keeps.
 */
export function homebrewCask({ version, repo, sums }) {
  // The dmg names of artifactNames(), written with the cask's own #{version} and #{arch}.
  return `cask "trayshare" do
  arch arm: "-arm64", intel: ""

  version "${version}"
  sha256 arm:   "${sums.macArm64}",
         intel: "${sums.macX64}"

  url "https://github.com/${repo}/releases/download/v#{version}/Trayshare-#{version}#{arch}.dmg"
  name "Trayshare"
  desc "${SUMMARY}"
  homepage "${HOMEPAGE}"

  livecheck do
    url :url
    strategy :github_latest
  end

  auto_updates true
  depends_on macos: :ventura

  app "Trayshare.app"

  zap trash: [
    "~/Library/Application Support/Trayshare",
    "~/Library/Caches/${APP_ID}",
    "~/Library/Caches/${APP_ID}.ShipIt",
    "~/Library/Caches/trayshare-updater",
    "~/Library/HTTPStorages/${APP_ID}",
    "~/Library/Logs/Trayshare",
    "~/Library/Preferences/${APP_ID}.plist",
    "~/Library/Saved Application State/${APP_ID}.savedState",
  ]
end
`;
}

/**
 * winget's multi-file manifest (version, defaultLocale, installer) at WINGET_MANIFEST_VERSION,
 * field names and enums from microsoft/winget-cli schemas/JSON/manifests/v1.28.0. The installer
 * is electron-builder's one-click per-user NSIS: `nullsoft` (silent with /S), Scope user,
 * UpgradeBehavior install (it replaces the installed version in place). Protocols lists the
 * set-up link scheme the app registers for itself on first start.
 */
export function wingetManifests({ version, repo, sums }) {
  const header = (type) =>
    `# yaml-language-server: $schema=https://aka.ms/winget-manifest.${type}.${WINGET_MANIFEST_VERSION}.schema.json\n`;
  const common = { PackageIdentifier: WINGET_ID, PackageVersion: version };
  const tail = { ManifestVersion: WINGET_MANIFEST_VERSION };
  const versionManifest = {
    ...common,
    DefaultLocale: 'en-US',
    ManifestType: 'version',
    ...tail,
  };
  const locale = {
    ...common,
    PackageLocale: 'en-US',
    Publisher: 'Trayshare maintainers',
    PublisherUrl: HOMEPAGE,
    PackageName: 'Trayshare',
    PackageUrl: HOMEPAGE,
    License: 'MIT',
    ShortDescription: SUMMARY,
    Description:
      "Trayshare is a tray app that shares files to your team's channels: drop files on it, pick Share with Trayshare in Explorer, or press its shortcut.",
    Moniker: 'trayshare',
    Tags: ['file-sharing', 'slack', 'tray', 'upload'],
    ReleaseNotesUrl: `https://github.com/${repo}/releases/tag/v${version}`,
    ManifestType: 'defaultLocale',
    ...tail,
  };
  const installer = {
    ...common,
    InstallerType: 'nullsoft',
    Scope: 'user',
    UpgradeBehavior: 'install',
    Protocols: ['trayshare'],
    ProductCode: nsisProductCode(),
    Installers: [
      {
        Architecture: 'x64',
        InstallerUrl: releaseUrl(repo, version, artifactNames(version).win.name),
        InstallerSha256: sums.win.toUpperCase(),
      },
    ],
    ManifestType: 'installer',
    ...tail,
  };
  return {
    [`${WINGET_ID}.yaml`]: header('version') + stringify(versionManifest),
    [`${WINGET_ID}.locale.en-US.yaml`]: header('defaultLocale') + stringify(locale),
    [`${WINGET_ID}.installer.yaml`]: header('installer') + stringify(installer),
  };
}

/**
 * Scoop, Extras style (ScoopInstaller/Extras bucket/obsidian.json does the same for its
 * electron-builder installer): the NSIS installer opened as a 7-Zip archive (`#/dl.7z`), the
 * app's own archive inside it ($PLUGINSDIR\app-64.7z) expanded into the app folder, and the
 * uninstaller dropped (Scoop uninstalls). checkver follows the GitHub releases; autoupdate
 * rewrites the url for the next version and Scoop hashes it.
 */
export function scoopManifest({ version, repo, sums }) {
  const file = (v) => artifactNames(v).win.name;
  return {
    version,
    description: SUMMARY,
    homepage: HOMEPAGE,
    license: 'MIT',
    architecture: {
      '64bit': {
        url: `${releaseUrl(repo, version, file(version))}#/dl.7z`,
        hash: sums.win,
        pre_install: [
          'Expand-7zipArchive "$dir\\`$PLUGINSDIR\\app-64.7z" "$dir"',
          'Remove-Item "$dir\\`$PLUGINSDIR", "$dir\\Uninstall*" -Force -Recurse',
        ],
      },
    },
    shortcuts: [['Trayshare.exe', 'Trayshare']],
    checkver: { github: `https://github.com/${repo}` },
    autoupdate: {
      architecture: {
        '64bit': { url: `${releaseUrl(repo, '$version', file('$version'))}#/dl.7z` },
      },
    },
  };
}

/** The desktop entry inside the Flatpak: named after the app id, launched through the wrapper. */
export function flatpakDesktopEntry() {
  return `[Desktop Entry]
Type=Application
Name=Trayshare
Comment=${SUMMARY}
Exec=trayshare --share %U
Icon=${DESKTOP_ID}
Terminal=false
Categories=Network;FileTransfer;
MimeType=application/octet-stream;x-scheme-handler/trayshare;
`;
}

const xml = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/**
 * AppStream metainfo (freedesktop.org AppStream spec, desktop-application component). Its id is
 * the desktop entry's id, so GNOME Software and KDE Discover join the two; without `release`,
 * the copy shipped in the deb, which carries no release history of its own.
 */
export function metainfo({ repo, release }) {
  const releases = release
    ? `  <releases>\n    <release version="${release.version}" date="${release.date}">\n      <url type="details">https://github.com/${repo}/releases/tag/v${release.version}</url>\n    </release>\n  </releases>\n`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<component type="desktop-application">
  <id>${DESKTOP_ID}</id>
  <metadata_license>CC0-1.0</metadata_license>
  <project_license>MIT</project_license>
  <name>Trayshare</name>
  <summary>Share files to your team from the tray</summary>
  <developer id="app.trayshare">
    <name>Trayshare maintainers</name>
  </developer>
  <description>
    <p>${xml("Trayshare shares files to your team's channels without opening a chat window. Drop files on its window, pick Share with Trayshare in your file manager, or press its shortcut; choose the channels, add a comment, and it uploads in the background.")}</p>
    <ul>
      <li>Presets for the channels you share to often</li>
      <li>A queue that survives restarts, and a searchable history of what you shared</li>
      <li>Your sign-in stays in the system keychain</li>
    </ul>
  </description>
  <launchable type="desktop-id">${DESKTOP_ID}.desktop</launchable>
  <url type="homepage">${HOMEPAGE}</url>
  <url type="bugtracker">https://github.com/${repo}/issues</url>
  <url type="vcs-browser">https://github.com/${repo}</url>
  <screenshots>
    <screenshot type="default">
      <caption>Choosing the channels to share two files to</caption>
      <image>https://raw.githubusercontent.com/${repo}/HEAD/docs/images/share-sheet.png</image>
    </screenshot>
  </screenshots>
  <categories>
    <category>Network</category>
    <category>FileTransfer</category>
  </categories>
  <content_rating type="oars-1.1" />
${releases}</component>
`;
}

/**
 * Flathub manifest (flatpak-docs, Electron page): the Electron2 BaseApp on the freedesktop
 * runtime, the app started through zypak-wrapper so Chromium's sandbox works inside Flatpak.
 * It repackages the release's deb (its sum checked by flatpak-builder). finish-args are only
 * what Trayshare uses:
 * - network: the uploads; wayland with fallback-x11, and ipc for X11's shared memory;
 * - org.freedesktop.secrets: the keychain (keytar through libsecret);
 * - org.kde.StatusNotifierWatcher: the tray icon; org.freedesktop.Notifications: notifications.
 * No --filesystem: dropped and picked files arrive through the document portal, screenshots
 * through the Screenshot portal.
 */
export function flatpakManifest({ version, repo, sums }) {
  return {
    'app-id': DESKTOP_ID,
    runtime: 'org.freedesktop.Platform',
    'runtime-version': '25.08',
    sdk: 'org.freedesktop.Sdk',
    base: 'org.electronjs.Electron2.BaseApp',
    'base-version': '25.08',
    command: 'trayshare',
    'separate-locales': false,
    'finish-args': [
      '--share=network',
      '--share=ipc',
      '--socket=wayland',
      '--socket=fallback-x11',
      '--talk-name=org.freedesktop.secrets',
      '--talk-name=org.kde.StatusNotifierWatcher',
      '--talk-name=org.freedesktop.Notifications',
    ],
    modules: [
      {
        name: 'trayshare',
        buildsystem: 'simple',
        'build-commands': [
          'bsdtar -Oxf trayshare.deb "data.tar*" | bsdtar -xf -',
          'cp -a opt/Trayshare "$FLATPAK_DEST/trayshare"',
          'install -Dm755 trayshare.sh "$FLATPAK_DEST/bin/trayshare"',
          'install -Dm644 "$FLATPAK_ID.desktop" "$FLATPAK_DEST/share/applications/$FLATPAK_ID.desktop"',
          'install -Dm644 "$FLATPAK_ID.metainfo.xml" "$FLATPAK_DEST/share/metainfo/$FLATPAK_ID.metainfo.xml"',
          // The deb's icons (electron-builder installs build/icons as hicolor/<size>/apps/trayshare.png).
          'for s in 16x16 32x32 48x48 64x64 128x128 256x256 512x512; do install -Dm644 "usr/share/icons/hicolor/$s/apps/trayshare.png" "$FLATPAK_DEST/share/icons/hicolor/$s/apps/$FLATPAK_ID.png"; done',
        ],
        sources: [
          {
            type: 'file',
            url: releaseUrl(repo, version, artifactNames(version).deb.name),
            sha256: sums.deb,
            'dest-filename': 'trayshare.deb',
            'only-arches': ['x86_64'],
          },
          { type: 'file', path: `${DESKTOP_ID}.desktop` },
          { type: 'file', path: `${DESKTOP_ID}.metainfo.xml` },
          {
            type: 'script',
            'dest-filename': 'trayshare.sh',
            commands: ['exec zypak-wrapper /app/trayshare/trayshare "$@"'],
          },
        ],
      },
    ],
  };
}

async function findArtifact(dir, entry) {
  for (const name of [entry.name, entry.onDisk]) {
    if (name && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * Writes every manager's files under `out` and returns what it wrote and what it left out (and
 * why). A manager whose artifacts are missing is left out with the file it looked for.
 */
export async function writeManifests({ version, artifacts, out, repo, date, macNotarised }) {
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new Error(`manifests: --version "${version}" is not a version like 1.2.3`);
  }
  const names = artifactNames(version);
  const sums = {};
  const missing = [];
  for (const [key, entry] of Object.entries(names)) {
    const path = await findArtifact(artifacts, entry);
    if (path) sums[key] = await sha256File(path);
    else missing.push(entry.name);
  }
  const written = [];
  const skipped = [];
  const put = async (rel, text) => {
    const path = join(out, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    written.push(rel);
  };
  const facts = { version, repo, sums };
  const lacking = (...keys) => keys.filter((k) => !sums[k]).map((k) => names[k].name);

  if (lacking('macX64', 'macArm64').length) {
    skipped.push(`Homebrew cask: no ${lacking('macX64', 'macArm64').join(' or ')} in ${artifacts}`);
  } else if (!macNotarised) {
    // Homebrew disables casks that fail Gatekeeper from 2026-09-01 (Homebrew/brew#20755).
    skipped.push(
      'Homebrew cask: the macOS build is not signed and notarised (--mac-notarised not given); Homebrew disables casks that fail Gatekeeper',
    );
  } else {
    await put('homebrew/Casks/trayshare.rb', homebrewCask(facts));
  }

  if (lacking('win').length) {
    skipped.push(`winget and Scoop: no ${names.win.name} in ${artifacts}`);
  } else {
    const dir = `winget/manifests/t/Trayshare/Trayshare/${version}`;
    for (const [file, text] of Object.entries(wingetManifests(facts))) {
      await put(`${dir}/${file}`, text);
    }
    await put('scoop/trayshare.json', `${JSON.stringify(scoopManifest(facts), null, 4)}\n`);
  }

  if (lacking('deb').length) {
    skipped.push(`Flathub: no ${names.deb.name} in ${artifacts}`);
  } else {
    const dir = `flathub/${DESKTOP_ID}`;
    await put(`${dir}/${DESKTOP_ID}.yml`, stringify(flatpakManifest(facts)));
    await put(`${dir}/${DESKTOP_ID}.desktop`, flatpakDesktopEntry());
    await put(`${dir}/${DESKTOP_ID}.metainfo.xml`, metainfo({ repo, release: { version, date } }));
  }
  return { written, skipped, missing };
}

async function main() {
  const { values } = parseArgs({
    options: {
      version: { type: 'string' },
      artifacts: { type: 'string' },
      out: { type: 'string' },
      repo: { type: 'string' },
      date: { type: 'string' },
      'mac-notarised': { type: 'boolean', default: false },
    },
  });
  if (!values.version || !values.artifacts || !values.out) {
    process.stderr.write(
      'usage: npm run manifests -- --version 1.2.3 --artifacts DIR --out DIR [--repo owner/name] [--date YYYY-MM-DD] [--mac-notarised]\n',
    );
    process.exit(2);
  }
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const repo = values.repo ?? process.env.GITHUB_REPOSITORY ?? 'trayshare/trayshare';
  const result = await writeManifests({
    version: values.version,
    artifacts: values.artifacts,
    out: values.out,
    repo,
    date: values.date ?? new Date().toISOString().slice(0, 10),
    macNotarised: values['mac-notarised'],
  });
  for (const file of result.written) process.stdout.write(`manifests: wrote ${file}\n`);
  for (const reason of result.skipped) process.stderr.write(`manifests: left out ${reason}\n`);
  if (values.version !== pkg.version) {
    process.stderr.write(
      `manifests: note: --version ${values.version} is not package.json's ${pkg.version}\n`,
    );
  }
  if (result.written.length === 0) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
