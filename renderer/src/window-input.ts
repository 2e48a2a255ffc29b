// Files reach the window by drop and by paste wherever focus is, not only on the drop view:
// people aim at the window, not a box, and Ctrl/Cmd+V is pressed wherever they happen to be.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { View } from '../../preload/contract';
import { api, plainError } from './bridge';
import { pasteContent, savePastedImage } from './paste';

/** Whether files are being dragged over the window. */
export function useDropAnywhere(
  addPaths: (paths: string[]) => void,
  setDropError: (error: string | null) => void,
): boolean {
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  // Listening on the document also keeps a stray drop from navigating to the file.
  useEffect(() => {
    const onDragEnter = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      dragDepth.current++;
      setDragging(true);
    };
    const onDragLeave = () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    };
    const onDragOver = (e: DragEvent) => {
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      e.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      const dropped = files.map((f) => api().pathForFile(f)).filter((p) => p !== '');
      if (dropped.length === 0) {
        setDropError('Only files and folders can be shared; that drop held neither.');
        return;
      }
      addPaths(dropped);
    };
    document.addEventListener('dragenter', onDragEnter);
    document.addEventListener('dragleave', onDragLeave);
    document.addEventListener('dragover', onDragOver);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('dragenter', onDragEnter);
      document.removeEventListener('dragleave', onDragLeave);
      document.removeEventListener('dragover', onDragOver);
      document.removeEventListener('drop', onDrop);
    };
  }, [addPaths, setDropError]);
  return dragging;
}

/**
 * Ctrl/Cmd+V shares what the clipboard holds: files like a drop, an image (a screenshot) as a
 * PNG file. Text pasted into a field is left to the field.
 */
export function usePasteAnywhere(
  addPaths: (paths: string[]) => void,
  setView: (next: View) => void,
  setDropError: (error: string | null) => void,
): void {
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (!e.clipboardData) return;
      const content = pasteContent(e.clipboardData);
      if (content.kind === 'none') {
        const target = e.target;
        const inField =
          target instanceof HTMLElement &&
          (target.isContentEditable || target.matches('input, textarea, select'));
        if (!inField && !content.text) {
          setView('drop');
          setDropError('The clipboard holds no files and no image to share.');
        }
        return;
      }
      e.preventDefault();
      if (content.kind === 'paths') {
        addPaths(content.paths);
        return;
      }
      savePastedImage(content.file).then(
        (path) => addPaths([path]),
        (error: unknown) => {
          setView('drop');
          setDropError(plainError(error));
        },
      );
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [addPaths, setView, setDropError]);
}
