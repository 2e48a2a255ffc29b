// The image editor of the share sheet: redact, mark up and crop an image before it leaves.
// It draws and flattens in the page, on a canvas: Chromium already decodes PNG, JPEG and WebP
// there (createImageBitmap, off the page's thread), and a canvas's PNG or JPEG is encoded from
// its pixels alone: a canvas holds no metadata of the image drawn on it, so no location, camera
// serial or embedded thumbnail of the original can follow; the only metadata the encoder adds is
// a 96 dpi resolution where the format has a field for it (MDN, HTMLCanvasElement.toBlob:
// https://developer.mozilla.org/docs/Web/API/HTMLCanvasElement/toBlob). The renderer test asks
// exiftool what the received file holds. A main-side library (sharp, jimp) would need the whole
// image sent to main and decoded a second time there, for the same pixels the page already has.
// Main gets the flattened bytes once, on Done (saveEditedImage), and keeps them as a new private
// file; the original file is never written. The image itself is usually the one the sheet
// decoded at full size for its thumbnail (capture-preview.tsx), so Edit only draws it.
//
// Shapes are kept in the image's own pixels, so a shape lands where the pointer was whatever the
// screen's pixel ratio: a pointer position is mapped through the canvas's CSS box to the image,
// and the canvas's backing store (device pixels) only decides how sharp the view is.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, plainError } from '../bridge';
import { baseName } from '../format';
import { giveBackDecoded, imageBlob, takeDecoded } from './capture-preview';
import { dropUnconfirmed, keepUnconfirmed, unconfirmedEdits } from './edited-images';
import { flatten, surfaces } from './image-flatten';
import {
  boundsOf,
  type Doc,
  drawShape,
  inside,
  normal,
  type Rect,
  type SentType,
  type Shape,
  sentType,
  strokeOf,
} from './image-marks';

type Tool = 'select' | 'redact' | 'box' | 'arrow' | 'text' | 'crop';
const TOOLS: { tool: Tool; label: string; key: string }[] = [
  { tool: 'select', label: 'Select', key: 'V' },
  { tool: 'redact', label: 'Redact', key: 'R' },
  { tool: 'box', label: 'Box', key: 'B' },
  { tool: 'arrow', label: 'Arrow', key: 'A' },
  { tool: 'text', label: 'Text', key: 'T' },
  { tool: 'crop', label: 'Crop', key: 'C' },
];

/** The long edge past which the editor offers "Send smaller", unless the preferences say otherwise. */
export const SEND_SMALLER_EDGE = 2560;

const isMac = () => /Mac/.test(navigator.platform);

/**
 * How long the edits stay still before the file is encoded ahead of Done. Encoding a 4K
 * screenshot is a few hundred milliseconds of Chromium's PNG encoder; begun while the person
 * looks the image over, Done usually finds the file ready.
 */
const SETTLE_MS = 200;

const KIND_NAMES: Record<Shape['kind'], string> = {
  redact: 'Redaction',
  box: 'Box',
  arrow: 'Arrow',
  text: 'Text',
};

/** A mark as a screen reader says it: its kind, then where it is, in the image's pixels. */
function describe(s: Shape, index: number, count: number): string {
  const what = s.kind === 'text' ? `Text "${s.text ?? ''}"` : KIND_NAMES[s.kind];
  const size = s.kind === 'text' ? '' : `, ${Math.abs(s.w)} by ${Math.abs(s.h)}`;
  return `${what}, mark ${index + 1} of ${count}, at ${Math.round(s.x)}, ${Math.round(s.y)}${size}, selected`;
}

export function ImageEditor(props: {
  path: string;
  /** The long edge past which "Send smaller" is offered. */
  smallerEdge: number;
  onDone: (edited: string) => void;
  onCancel: () => void;
}) {
  const name = baseName(props.path);
  const dialog = useRef<HTMLDialogElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [image, setImage] = useState<{ bitmap: ImageBitmap; type: SentType } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Edits left with Esc last time come back, undo history and all.
  const [kept] = useState(() => unconfirmedEdits(props.path));
  const [doc, setDoc] = useState<Doc>(kept?.doc ?? { shapes: [], crop: null });
  const [past, setPast] = useState<Doc[]>(kept?.past ?? []);
  const [future, setFuture] = useState<Doc[]>(kept?.future ?? []);
  const [tool, setTool] = useState<Tool>('redact');
  const [selected, setSelected] = useState<number | null>(null);
  const [label, setLabel] = useState('Note');
  const [smaller, setSmaller] = useState(false);
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState({ width: 0, height: 0 });
  const drag = useRef<{ mode: 'draw' | 'move'; x: number; y: number; from: Doc } | null>(null);
  /** What a screen reader is told after a keyboard selection or removal (a polite live region). */
  const [said, setSaid] = useState('');
  /** The canvases the file is flattened on (image-flatten.ts), made once the image shows. */
  const [surfaced] = useState(surfaces);
  useEffect(() => () => surfaced.release(), [surfaced]);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    performance.mark('image-editor:open');
    let live = true;
    let owned: ImageBitmap | null = null;
    Promise.all([imageBlob(props.path), takeDecoded(props.path)])
      .then(async ([read, decoded]) => {
        owned = decoded;
        if (!read) throw new Error('This image can no longer be read, so it cannot be edited.');
        performance.mark('image-editor:read');
        // The sheet decoded the image for its thumbnail and kept it: then Edit only draws.
        const [bitmap, head] = await Promise.all([
          decoded ?? createImageBitmap(read),
          read.slice(0, 64 * 1024).arrayBuffer(),
        ]);
        owned = bitmap;
        performance.mark('image-editor:decoded');
        if (!live) return;
        setImage({ bitmap, type: sentType(new Uint8Array(head), read.type) });
        // The keyboard starts on the image: Enter places a redaction at once.
        requestAnimationFrame(() => canvas.current?.focus());
      })
      .catch((e: unknown) => live && setProblem(plainError(e)))
      .finally(() => {
        if (!live && owned) giveBackDecoded(props.path, owned);
      });
    return () => {
      live = false;
      // Kept for the next Edit while the image is in the sheet (an encode ahead has drawn it).
      if (owned) giveBackDecoded(props.path, owned);
      owned = null;
    };
  }, [props.path]);

  // The canvas fits the room the dialog leaves it, at the screen's pixel ratio.
  useLayoutEffect(() => {
    const box = stage.current;
    if (!box) return;
    const measure = () => setView({ width: box.clientWidth, height: box.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const bitmap = image?.bitmap ?? null;
  const scale = bitmap
    ? Math.min(view.width / bitmap.width, view.height / bitmap.height, 1) || 1
    : 1;

  useEffect(() => {
    const c = canvas.current;
    if (!c || !bitmap) return;
    const ratio = window.devicePixelRatio || 1;
    const cssW = Math.max(1, Math.round(bitmap.width * scale));
    const cssH = Math.max(1, Math.round(bitmap.height * scale));
    c.style.width = `${cssW}px`;
    c.style.height = `${cssH}px`;
    c.width = Math.round(cssW * ratio);
    c.height = Math.round(cssH * ratio);
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform((cssW * ratio) / bitmap.width, 0, 0, (cssH * ratio) / bitmap.height, 0, 0);
    g.imageSmoothingQuality = 'high';
    g.drawImage(bitmap, 0, 0);
    const stroke = strokeOf(bitmap);
    for (const shape of doc.shapes) drawShape(g, shape, stroke);
    if (doc.crop) {
      const { x, y, w, h } = doc.crop;
      g.fillStyle = 'rgba(0, 0, 0, 0.55)';
      g.beginPath();
      g.rect(0, 0, bitmap.width, bitmap.height);
      g.rect(x, y, w, h);
      g.fill('evenodd');
    }
    const shown = selected !== null ? doc.shapes[selected] : undefined;
    const outline = shown ? boundsOf(g, shown) : tool === 'crop' ? doc.crop : null;
    if (outline) {
      g.setLineDash([6 / scale, 4 / scale]);
      g.lineWidth = 2 / scale;
      g.strokeStyle = '#2f7ff0';
      g.strokeRect(outline.x, outline.y, outline.w, outline.h);
      g.setLineDash([]);
    }
    c.dataset.ready = 'true';
    performance.mark('image-editor:ready');
  }, [bitmap, doc, scale, selected, tool]);
  // The full-size canvas Done flattens on, made once the image has shown (the frame after it is
  // drawn) and long before a person can press Done.
  useEffect(() => {
    if (!bitmap) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => surfaced.warm(bitmap.width, bitmap.height));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [bitmap, surfaced]);

  /** Every change goes through here, so Undo gets the state before it. */
  const change = (next: Doc, from: Doc = doc) => {
    setPast((p) => [...p, from]);
    setFuture([]);
    setDoc(next);
  };
  const undo = () => {
    const last = past.at(-1);
    if (!last) return;
    setPast(past.slice(0, -1));
    setFuture([doc, ...future]);
    setDoc(last);
    setSelected(null);
  };
  const redo = () => {
    const [next, ...rest] = future;
    if (!next) return;
    setFuture(rest);
    setPast([...past, doc]);
    setDoc(next);
    setSelected(null);
  };

  /** The pointer's position in image pixels (CSS box to image: right on any pixel ratio). */
  const at = (e: PointerEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return {
      x: ((e.clientX - rect.left) / rect.width) * bitmap!.width,
      y: ((e.clientY - rect.top) / rect.height) * bitmap!.height,
    };
  };

  const textHeight = () => (bitmap ? Math.max(16, Math.round(bitmap.height / 24)) : 16);

  /** A new shape of the current tool from a box the pointer or the keyboard gave. */
  const place = (r: Rect, from: Doc = doc) => {
    if (!bitmap) return;
    if (tool === 'crop') {
      const crop = normal(r, bitmap.width, bitmap.height, true);
      if (crop.w >= 2 && crop.h >= 2) change({ ...from, crop }, from);
      return;
    }
    if (tool === 'select') return;
    let shape: Shape;
    if (tool === 'arrow') shape = { kind: 'arrow', ...r };
    else if (tool === 'text') {
      if (label.trim() === '') return;
      shape = {
        kind: 'text',
        x: Math.round(r.x),
        y: Math.round(r.y),
        w: 0,
        h: textHeight(),
        text: label,
      };
    } else {
      shape = { kind: tool, ...normal(r, bitmap.width, bitmap.height) };
      if (shape.w < 2 || shape.h < 2) return;
    }
    change({ ...from, shapes: [...from.shapes, shape] }, from);
    setSelected(from.shapes.length);
  };

  const onPointerDown = (e: PointerEvent) => {
    if (!bitmap || busy) return;
    canvas.current?.setPointerCapture(e.pointerId);
    canvas.current?.focus();
    const p = at(e);
    const g = canvas.current?.getContext('2d') ?? null;
    const slack = 6 / scale;
    if (tool === 'select' || tool === 'text') {
      // The top shape under the pointer is picked up (with Text, only a label: a click on a box
      // or an arrow puts a label there).
      for (let i = doc.shapes.length - 1; i >= 0; i--) {
        const shape = doc.shapes[i]!;
        if (tool === 'text' && shape.kind !== 'text') continue;
        if (inside(boundsOf(g, shape), p.x, p.y, slack)) {
          setSelected(i);
          drag.current = { mode: 'move', ...p, from: doc };
          return;
        }
      }
      setSelected(null);
      if (tool === 'text') place({ x: p.x, y: p.y, w: 0, h: 0 });
      return;
    }
    setSelected(null);
    drag.current = { mode: 'draw', ...p, from: doc };
  };

  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || !bitmap) return;
    const p = at(e);
    if (d.mode === 'move' && selected !== null) {
      const shapes = d.from.shapes.map((s, i) =>
        i === selected
          ? { ...s, x: Math.round(s.x + p.x - d.x), y: Math.round(s.y + p.y - d.y) }
          : s,
      );
      setDoc({ ...d.from, shapes });
    }
  };

  const onPointerUp = (e: PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d || !bitmap) return;
    const p = at(e);
    if (d.mode === 'move') {
      if (doc !== d.from) change(doc, d.from);
      return;
    }
    place({ x: d.x, y: d.y, w: p.x - d.x, h: p.y - d.y }, d.from);
  };

  /**
   * Arrow keys move the selected shape (Shift: make it larger or smaller); Enter places one; N
   * selects the next shape (Shift+N the one before), so a keyboard reaches every mark the mouse
   * can; Delete removes the selected one.
   */
  const onCanvasKey = (e: KeyboardEvent) => {
    if (!bitmap) return;
    const count = doc.shapes.length;
    if (e.key.toLowerCase() === 'n' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      // Handled: the dialog's keys would otherwise see a letter.
      e.stopPropagation();
      if (count === 0) {
        setSaid('No marks to select yet.');
        return;
      }
      const from = selected ?? (e.shiftKey ? 0 : -1);
      const next = (from + (e.shiftKey ? -1 : 1) + count) % count;
      setSelected(next);
      setSaid(describe(doc.shapes[next]!, next, count));
      return;
    }
    const step = Math.max(1, Math.round(Math.max(bitmap.width, bitmap.height) / 100));
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (move && selected !== null) {
      e.preventDefault();
      const [dx, dy] = move;
      const shapes = doc.shapes.map((s, i) => {
        if (i !== selected) return s;
        if (!e.shiftKey) return { ...s, x: s.x + dx, y: s.y + dy };
        if (s.kind === 'text') return { ...s, h: Math.max(8, s.h + dx + dy) };
        return { ...s, w: Math.max(2, s.w + dx), h: Math.max(2, s.h + dy) };
      });
      change({ ...doc, shapes });
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      // A quarter of the image, in its middle: then arrow keys put it where it belongs.
      const [w, h] = [Math.round(bitmap.width / 4), Math.round(bitmap.height / 4)];
      place({
        x: Math.round((bitmap.width - w) / 2),
        y: Math.round((bitmap.height - h) / 2),
        w,
        h,
      });
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected !== null) {
      e.preventDefault();
      const gone = doc.shapes[selected]!;
      change({ ...doc, shapes: doc.shapes.filter((_, i) => i !== selected) });
      setSelected(null);
      setSaid(
        `${KIND_NAMES[gone.kind]} removed, ${count - 1 === 1 ? '1 mark' : `${count - 1} marks`} left.`,
      );
    }
  };

  const offerSmaller = bitmap
    ? Math.max(doc.crop?.w ?? bitmap.width, doc.crop?.h ?? bitmap.height) > props.smallerEdge
    : false;
  const longEdge = offerSmaller && smaller ? props.smallerEdge : null;

  // The file for the edits as they stand, encoded ahead once they settle with Chromium's idle
  // encoder, so the page keeps answering while the person looks the image over. Done takes that
  // file when it is ready, and otherwise encodes at once (image-flatten.ts's EncodeWhen): the idle
  // encoder may wait a whole second for an idle period, and by then the person is waiting.
  const ahead = useRef<{
    doc: Doc;
    longEdge: number | null;
    bytes: Promise<Uint8Array<ArrayBuffer>>;
    ready: boolean;
  } | null>(null);
  const encodeAhead = (d: Doc, edge: number | null) => {
    const was = ahead.current;
    if (was && was.doc === d && was.longEdge === edge) return was.bytes;
    const made = {
      doc: d,
      longEdge: edge,
      bytes: flatten(image!.bitmap, d, image!.type, edge, 'idle', surfaced),
      ready: false,
    };
    // A failure is not told here: Done encodes again and tells its own.
    made.bytes.then(
      () => {
        made.ready = true;
      },
      () => undefined,
    );
    ahead.current = made;
    return made.bytes;
  };
  const encodeForDone = (d: Doc, edge: number | null) => {
    const was = ahead.current;
    if (was?.ready && was.doc === d && was.longEdge === edge) return was.bytes;
    ahead.current = null;
    return flatten(image!.bitmap, d, image!.type, edge, 'now', surfaced);
  };
  useEffect(() => {
    // Nothing edited and nothing to scale: Done is unlikely, so no encode is spent on it.
    if (!image || busy || (past.length === 0 && longEdge === null)) return;
    const timer = setTimeout(() => {
      // The mark tells the bench the file is ready before Done (bench/image-editor.ts).
      if (!drag.current)
        encodeAhead(doc, longEdge).then(
          () => performance.mark('image-editor:ahead'),
          () => undefined,
        );
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  });

  const done = async () => {
    if (!image || busy) return;
    setBusy(true);
    setProblem(null);
    performance.mark('image-editor:done');
    try {
      const bytes = await encodeForDone(doc, longEdge);
      performance.mark('image-editor:encoded');
      const edited = await api().saveEditedImage(bytes, props.path);
      performance.mark('image-editor:saved');
      dropUnconfirmed(props.path);
      props.onDone(edited);
    } catch (e) {
      ahead.current = null;
      setProblem(plainError(e));
      setBusy(false);
    }
  };
  /** Cancel drops the edits; Esc keeps them for the next Edit of this image, as a draft. */
  const leave = (keep: boolean) => {
    if (keep && past.length + future.length > 0) keepUnconfirmed(props.path, { doc, past, future });
    else dropUnconfirmed(props.path);
    props.onCancel();
  };

  // Keys anywhere in the dialog: Esc leaves, Ctrl/Cmd+Z undoes, a tool's letter picks it.
  const onKeyDown = (e: KeyboardEvent) => {
    const typing = e.target instanceof HTMLInputElement && e.target.type === 'text';
    const mod = isMac() ? e.metaKey : e.ctrlKey;
    if (e.key === 'Escape') {
      // Taken here: the sheet behind must not close (use-escape.ts skips a handled Esc).
      e.preventDefault();
      e.stopPropagation();
      if (!busy) leave(true);
    } else if (mod && e.key.toLowerCase() === 'z' && !typing) {
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    } else if (mod && e.key.toLowerCase() === 'y' && !typing) {
      e.preventDefault();
      redo();
    } else if (!mod && !e.altKey && !typing && e.key.length === 1) {
      const picked = TOOLS.find((t) => t.key === e.key.toUpperCase());
      if (picked) {
        e.preventDefault();
        setTool(picked.tool);
        if (picked.tool !== 'select') setSelected(null);
      }
    }
  };

  const undoKeys = isMac() ? 'Cmd+Z' : 'Ctrl+Z';
  const current = TOOLS.find((t) => t.tool === tool)!;

  return (
    <dialog
      ref={dialog}
      class="image-editor"
      aria-labelledby="image-editor-title"
      onKeyDown={onKeyDown}
      onCancel={(e) => e.preventDefault()}
    >
      <header class="image-editor__header">
        <h2 id="image-editor-title" class="image-editor__title">
          Edit image
        </h2>
        <span class="image-editor__name">{name}</span>
      </header>
      <div class="image-editor__tools" role="toolbar" aria-label="Tools">
        {TOOLS.map((t) => (
          <button
            key={t.tool}
            type="button"
            class="button button--small"
            aria-pressed={tool === t.tool}
            aria-keyshortcuts={t.key}
            title={`${t.label} (${t.key})`}
            onClick={() => {
              setTool(t.tool);
              if (t.tool !== 'select') setSelected(null);
            }}
          >
            {t.label}
          </button>
        ))}
        <button
          type="button"
          class="button button--small"
          aria-keyshortcuts={isMac() ? 'Meta+Z' : 'Control+Z'}
          title={`Undo (${undoKeys})`}
          disabled={past.length === 0}
          onClick={undo}
        >
          Undo
        </button>
        <button
          type="button"
          class="button button--small"
          aria-keyshortcuts={isMac() ? 'Shift+Meta+Z' : 'Shift+Control+Z'}
          title={`Redo (Shift+${undoKeys})`}
          disabled={future.length === 0}
          onClick={redo}
        >
          Redo
        </button>
        {tool === 'text' ? (
          <label class="image-editor__label">
            Text
            <input
              type="text"
              class="input"
              value={label}
              maxLength={80}
              onInput={(e) => setLabel((e.target as HTMLInputElement).value)}
            />
          </label>
        ) : null}
      </div>
      <div class="image-editor__stage" ref={stage}>
        {problem && !image ? null : (
          <canvas
            ref={canvas}
            class="image-editor__canvas"
            role="img"
            tabIndex={0}
            aria-keyshortcuts="Enter N Shift+N Delete"
            aria-label={`${name}, ${doc.shapes.length === 1 ? '1 mark' : `${doc.shapes.length} marks`}${doc.crop ? ', cropped' : ''}. ${current.label}: Enter places one; N selects the next mark, arrow keys move it, with Shift resize it; Delete removes it.`}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onKeyDown={onCanvasKey}
          />
        )}
      </div>
      <p class="image-editor__hint">
        {tool === 'select'
          ? 'Select: pick a mark to move it, or press N; Delete removes it.'
          : `${current.label}: ${tool === 'text' ? 'click where it goes' : 'drag on the image'}, or press Enter.`}{' '}
        N selects the next mark, arrow keys move it.
      </p>
      <p class="visually-hidden" aria-live="polite">
        {said}
      </p>
      {problem ? (
        <p class="image-editor__problem" role="alert">
          {problem}
        </p>
      ) : null}
      <footer class="image-editor__footer">
        {offerSmaller ? (
          <label class="image-editor__smaller">
            <input
              type="checkbox"
              checked={smaller}
              onChange={(e) => setSmaller((e.target as HTMLInputElement).checked)}
            />
            Send smaller ({props.smallerEdge} px long edge)
          </label>
        ) : null}
        <button type="button" class="button" disabled={busy} onClick={() => leave(false)}>
          Cancel
        </button>
        <button
          type="button"
          class="button button--primary"
          disabled={!image || busy}
          onClick={() => void done()}
        >
          Done
        </button>
      </footer>
    </dialog>
  );
}
