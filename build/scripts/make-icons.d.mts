// Types for make-icons.mjs (a plain Node script, so it runs without a build step).
export type Pixels = Uint8Array;
export type Paint = (
  u: number,
  v: number,
  coverageOf: (shape: Shape, scale?: number, ox?: number, oy?: number) => number,
) => [number, number, number, number];
export type Shape = (x: number, y: number) => number;
export type TrayState = 'idle' | 'uploading' | 'attention';
export const glyphs: Record<TrayState, Shape>;
export const trayColors: Record<TrayState, string>;
export function render(size: number, paint: Paint): Pixels;
export function trayIcon(state: TrayState, size: number): Pixels;
export function templateIcon(state: TrayState, size: number): Pixels;
export function appIcon(size: number): Pixels;
export function encodePng(width: number, rgba: Pixels, height?: number): Buffer;
/** Every icon file under build/, relative path → [size, pixels()]. */
export function iconFiles(): Map<string, [number, () => Pixels]>;
export const buildDir: string;
