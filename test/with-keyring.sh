#!/usr/bin/env bash
# Runs a command beside a real, unlocked Secret Service (gnome-keyring) on a private D-Bus
# session, with a throw-away HOME so tests never touch the developer's own keyring or settings.
# On macOS and Windows the OS keychain is already there, so the command runs as it is.
set -euo pipefail
if [ "$(uname -s)" != Linux ]; then exec "$@"; fi
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "with-keyring: $tool is missing: run 'npm run setup'" >&2; exit 1; }
done
home=$(mktemp -d /tmp/trayshare-test-home.XXXXXX)
trap 'rm -rf "$home"' EXIT
export TRAYSHARE_TEST_REAL_HOME="$HOME"
# Playwright's browsers stay where `npx playwright-core install chromium` put them (its Linux
# default is under the real HOME), so the renderer tests still find them (test/renderer/browser.ts).
export PLAYWRIGHT_BROWSERS_PATH="${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"
export HOME="$home"
export PATH="$PWD/node_modules/.bin:$PATH"
exec dbus-run-session -- bash -c '
  export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 "$XDG_RUNTIME_DIR"
  eval "$(printf %s trayshare-test | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
  "$@"' with-keyring "$@"
