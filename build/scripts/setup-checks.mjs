// The decisions behind build/scripts/setup.mjs, kept apart so they are unit-tested on any OS.

/**
 * The engines ranges package.json uses: alternatives joined by `||`, each `^X.Y` (X.Y or a later
 * X.*) or `>=X.Y`. Hand-parsed because this runs before any npm package is installed.
 */
function alternatives(range) {
  return range.split('||').map((part) => {
    const m = /^\s*(\^|>=)\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(part);
    if (!m) throw new Error(`setup: engines.node "${range}" is not of the form "^X.Y || >=X.Y"`);
    return { caret: m[1] === '^', min: [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)] };
  });
}

function atLeast(have, need) {
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== need[i]) return (have[i] ?? 0) > need[i];
  }
  return true;
}

/** Whether a Node version (`22.23.3`) is in an engines range (`^22.20 || >=24.12`). */
export function satisfiesEngines(version, range) {
  const have = version.split('.').map(Number);
  return alternatives(range).some(
    ({ caret, min }) => atLeast(have, min) && (!caret || have[0] === min[0]),
  );
}

/** `^22.20 || >=24.12` in words: "22.20 or a later 22, or 24.12 or newer". */
export function describeEngines(range) {
  return alternatives(range)
    .map(({ caret, min: [major, minor] }) =>
      caret ? `${major}.${minor} or a later ${major}` : `${major}.${minor} or newer`,
    )
    .join(', or ');
}

/** What to tell someone whose Node.js does not fit, per OS; null when it does. */
export function nodeVersionProblem(version, range, platform) {
  if (satisfiesEngines(version, range)) return null;
  const how =
    {
      darwin: 'brew install node@22, or the macOS installer from nodejs.org',
      win32: 'the Windows installer from nodejs.org (or winget install OpenJS.NodeJS.LTS)',
      linux: 'your version manager (nvm install 22, fnm install 22), or nodejs.org',
    }[platform] ?? 'nodejs.org';
  return `Trayshare needs Node.js ${describeEngines(range)} (Electron and its build tools do); this is ${version}. Install Node.js 22 LTS with ${how}, then run this again.`;
}

/**
 * Debian packages: keytar's build (libsecret), and for the tests a real keyring, Chromium, Xvfb.
 * `osRelease` is /etc/os-release's text: Ubuntu's `chromium` package only installs the snap,
 * which needs snapd and is slow or absent on CI runners, so there the renderer tests use
 * Playwright's Chromium (`npx playwright-core install chromium`, test/renderer/browser.ts).
 */
export function debianPackages(mode, osRelease = '') {
  const app = ['libsecret-1-dev', 'python3', 'make', 'g++'];
  if (mode !== 'test') return app;
  const ubuntu = /^ID=["']?ubuntu["']?$/m.test(osRelease);
  return [
    ...app,
    // gnome-keyring + dbus: a real Secret Service for keytar; chromium + xvfb: renderer tests;
    // curl: the reference service is checked against a client nobody here wrote;
    // desktop-file-utils + libglib2.0-bin: generated file-manager entries are checked for real.
    // libimage-exiftool-perl: ExifTool writes the photo and video samples and judges what of
    // their location and other hidden details left (main/core/metadata).
    'gnome-keyring',
    'dbus',
    'dbus-x11',
    ...(ubuntu ? [] : ['chromium']),
    'xvfb',
    'xauth',
    'curl',
    'fonts-dejavu-core',
    'desktop-file-utils',
    'libglib2.0-bin',
    // The package managers' files are judged by their vendors' tools (test/packaging/
    // manifests.test.ts): AppStream's validator, flatpak-builder's parser, Ruby for the cask.
    'appstream',
    'flatpak-builder',
    'ruby',
    // exiftool: the judge of what a photo still holds after the image editor or the metadata
    // removal (test/renderer/image-editor.test.ts, main/core/metadata/strip.test.ts).
    'libimage-exiftool-perl',
  ];
}

/** Linux without apt: the same needs, in the names other distributions use. */
export function otherLinuxAdvice(mode) {
  const base =
    'no apt-get here, so install these yourself if npm install fails: libsecret development files, python3, make and a C++ compiler (Fedora: sudo dnf install libsecret-devel python3 make gcc-c++; Arch: sudo pacman -S libsecret python make gcc; openSUSE: sudo zypper install libsecret-devel python3 make gcc-c++).';
  return mode === 'test'
    ? `${base} The tests also need gnome-keyring, dbus, Chromium and Xvfb.`
    : base;
}
