// Plain constants about pasted images, shared by the core, the IPC contract and the renderer
// (which checks before sending an image it could not send).

/** Largest image taken from the clipboard (a 6K screenshot as PNG is about 40 MiB). */
export const MAX_PASTED_IMAGE_BYTES = 64 * 1024 ** 2;
