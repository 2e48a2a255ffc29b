// `node --import ./test/boot/register.mjs out/main/index.js`: the platform the boot pretends to
// be (TRAYSHARE_BOOT_PLATFORM), Electron's process fields, and a resolve hook that answers
// `electron` with the recording fake. Everything else resolves as it would in the app.
import { register, registerHooks } from 'node:module';

const platform = process.env.TRAYSHARE_BOOT_PLATFORM;
if (platform) Object.defineProperty(process, 'platform', { value: platform });
if (process.env.TRAYSHARE_BOOT_RESOURCES)
  process.resourcesPath = process.env.TRAYSHARE_BOOT_RESOURCES;
process.type = 'browser';

const fake = new URL('./electron-fake.mjs', import.meta.url).href;
// CommonJS dependencies (electron-updater) require('electron') inside functions, as Electron
// answers with its built-in module: the synchronous hook covers require() too.
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'electron') return { url: fake, format: 'module', shortCircuit: true };
    return next(specifier, context);
  },
});
register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier === 'electron') return { url: ${JSON.stringify(fake)}, shortCircuit: true };
      return next(specifier, context);
    }`)}`,
);
