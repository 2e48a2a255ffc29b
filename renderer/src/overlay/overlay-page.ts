// The capture overlay's page (Windows): draws its display's picture, lets the person drag an
// area over it, and tells main what they did (a drag, Enter, Esc). Main decides what that
// selects and cuts the image: the page never sees the capture itself, only a JPEG to show.
import type { OverlayBridge, OverlayPoint as Point } from '../../../preload/overlay-contract';
import './overlay.css';

declare global {
  interface Window {
    trayshareOverlay: OverlayBridge;
  }
}

const bridge = () => window.trayshareOverlay;
const shot = document.querySelector<HTMLCanvasElement>('.overlay__shot')!;
const selection = document.querySelector<HTMLElement>('.overlay__selection')!;
const size = document.querySelector<HTMLElement>('.overlay__size')!;

let closing = false;
let dragFrom: Point | null = null;

async function showPicture(): Promise<void> {
  const { jpeg } = await bridge().image();
  const bitmap = await createImageBitmap(
    new Blob([jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }),
  );
  shot.width = bitmap.width;
  shot.height = bitmap.height;
  shot.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  shot.dataset.drawn = 'true';
}

function choose(input: Parameters<OverlayBridge['choose']>[0]): void {
  if (closing) return;
  void bridge()
    .choose(input)
    .then((taken) => {
      if (taken) closing = true;
    });
}

function drawSelection(from: Point, to: Point): void {
  const x = Math.min(from.x, to.x);
  const y = Math.min(from.y, to.y);
  const width = Math.abs(to.x - from.x);
  const height = Math.abs(to.y - from.y);
  Object.assign(selection.style, {
    left: `${x}px`,
    top: `${y}px`,
    width: `${width}px`,
    height: `${height}px`,
  });
  // The size the screenshot will have: the display's device pixels.
  const ratio = window.devicePixelRatio || 1;
  size.textContent = `${Math.round(width * ratio)} × ${Math.round(height * ratio)}`;
  selection.hidden = false;
  document.body.classList.add('overlay--selecting');
}

const at = (event: PointerEvent): Point => ({ x: event.clientX, y: event.clientY });

document.addEventListener('pointerdown', (event) => {
  if (event.button !== 0 || closing) return;
  dragFrom = at(event);
  document.body.setPointerCapture(event.pointerId);
});
document.addEventListener('pointermove', (event) => {
  if (dragFrom) drawSelection(dragFrom, at(event));
});
document.addEventListener('pointerup', (event) => {
  if (!dragFrom) return;
  const from = dragFrom;
  dragFrom = null;
  choose({ kind: 'drag', from, to: at(event) });
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' && event.key !== 'Escape') return;
  event.preventDefault();
  choose({ kind: 'key', key: event.key });
});
document.addEventListener('contextmenu', (event) => event.preventDefault());

showPicture()
  .catch(() => {
    // Without its picture the overlay still works (the cut is made from main's own image).
  })
  .finally(() => void bridge().ready());
