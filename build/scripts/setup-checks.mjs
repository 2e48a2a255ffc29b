// The decisions behind build/scripts/setup.mjs, kept apart so they are unit-tested on any OS.

/** `22.12.0` vs an engines range of the form `>=22.12` (the only form package.json uses). */
export function satisfiesMinimum(version, range) {
  const min = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!min) throw new Error(`setup: engines.node "${range}" is not of the form ">=X.Y"`);
  const have = version.split('.').map(Number);
  const need = [Number(min[1]), Number(min[2] ?? 0), Number(min[3] ?? 0)];
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== need[i]) return (have[i] ?? 0) > need[i];
  }
  return true;
}

/** What to tell someone whose Node.js is too old, per OS; null when it is new enough. */
export function nodeVersionProblem(version, range, platform) {
  if (satisfiesMinimum(version, range)) return null;
  const how =
    {
      darwin: 'brew install node@22, or the macOS installer from nodejs.org',
      win32: 'winget install OpenJS.NodeJS.LTS, or the Windows installer from nodejs.org',
      linux: 'your version manager (nvm install 22, fnm install 22), or nodejs.org',
    }[platform] ?? 'nodejs.org';
  return `Trayshare needs Node.js ${range.replace('>=', '')} or newer (Electron and its build tools do); this is ${version}. Install Node.js 22 LTS with ${how}, then run this again.`;
}

/** Debian packages: keytar's build (libsecret), and for the tests a real keyring, Chromium, Xvfb. */
export function debianPackages(mode) {
  const app = ['libsecret-1-dev', 'python3', 'make', 'g++'];
  if (mode !== 'test') return app;
  return [
    ...app,
    // gnome-keyring + dbus: a real Secret Service for keytar; chromium + xvfb: renderer tests;
    // curl: the reference service is checked against a client nobody here wrote;
    // desktop-file-utils + libglib2.0-bin: generated file-manager entries are checked for real.
    'gnome-keyring',
    'dbus',
    'dbus-x11',
    'chromium',
    'xvfb',
    'xauth',
    'curl',
    'fonts-dejavu-core',
    'desktop-file-utils',
    'libglib2.0-bin',
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
