// Which OS the window runs on, for what people read (shortcut names). Electron's Chromium
// reports the real platform; nothing here decides behaviour.
export const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
