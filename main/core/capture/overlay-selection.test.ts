// The Windows overlay's rules: what a drag, a click, Enter and Esc select, and how a selection
// in a display's DIPs becomes pixels of that display's capture at its own scale factor.
import { describe, expect, it } from 'vitest';
import {
  captureBox,
  capturePixelSize,
  type DisplayLike,
  devicePixelSize,
  displayAt,
  matchSources,
  overlayChoice,
  toImagePixels,
} from './overlay-selection';

const laptop: DisplayLike = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1280, height: 800 },
  scaleFactor: 1.5,
};
const monitor: DisplayLike = {
  id: 2,
  bounds: { x: 1280, y: -200, width: 2560, height: 1440 },
  scaleFactor: 1,
};

describe('the overlay', () => {
  it('asks for each display at its own pixel size', () => {
    expect(capturePixelSize(laptop)).toEqual({ width: 1920, height: 1200 });
    expect(capturePixelSize(monitor)).toEqual({ width: 2560, height: 1440 });
  });

  it('takes a drag in any direction as an area, kept on the display', () => {
    expect(
      overlayChoice({ kind: 'drag', from: { x: 300, y: 200 }, to: { x: 100, y: 50 } }, laptop),
    ).toEqual({ kind: 'area', rect: { x: 100, y: 50, width: 200, height: 150 } });
    expect(
      overlayChoice({ kind: 'drag', from: { x: 1200, y: 700 }, to: { x: 1500, y: 900 } }, laptop),
    ).toEqual({ kind: 'area', rect: { x: 1200, y: 700, width: 80, height: 100 } });
  });

  it('cancels on Esc, takes the whole display on Enter, ignores other keys', () => {
    expect(overlayChoice({ kind: 'key', key: 'Escape' }, laptop)).toEqual({ kind: 'cancel' });
    expect(overlayChoice({ kind: 'key', key: 'Enter' }, laptop)).toEqual({ kind: 'screen' });
    expect(overlayChoice({ kind: 'key', key: 'a' }, laptop)).toEqual({ kind: 'none' });
  });

  it('takes a click (or a drag under 4 DIPs) as the topmost window under it, clipped to the display', () => {
    const windows = [
      { id: 'editor', bounds: { x: 1380, y: -100, width: 800, height: 600 } },
      { id: 'behind', bounds: { x: 1280, y: -200, width: 2560, height: 1440 } },
    ];
    expect(overlayChoice({ kind: 'click', at: { x: 200, y: 200 } }, monitor, windows)).toEqual({
      kind: 'window',
      id: 'editor',
      rect: { x: 100, y: 100, width: 800, height: 600 },
    });
    expect(
      overlayChoice(
        { kind: 'drag', from: { x: 2000, y: 1000 }, to: { x: 2002, y: 1001 } },
        monitor,
        windows,
      ),
    ).toMatchObject({ kind: 'window', id: 'behind' });
    expect(overlayChoice({ kind: 'click', at: { x: 5, y: 5 } }, laptop, [])).toEqual({
      kind: 'screen',
    });
  });

  it('turns a selection into pixels at the display’s scale, edges outwards, inside the image', () => {
    const image = capturePixelSize(laptop);
    expect(toImagePixels({ x: 100, y: 50, width: 200, height: 150 }, laptop, image)).toEqual({
      x: 150,
      y: 75,
      width: 300,
      height: 225,
    });
    // An odd DIP edge at 1.5× falls between pixels: the selection keeps the partly covered one.
    expect(toImagePixels({ x: 1, y: 1, width: 1, height: 1 }, laptop, image)).toEqual({
      x: 1,
      y: 1,
      width: 2,
      height: 2,
    });
    expect(toImagePixels({ x: 1200, y: 700, width: 80, height: 100 }, laptop, image)).toEqual({
      x: 1800,
      y: 1050,
      width: 120,
      height: 150,
    });
  });

  it('measures the scale on the image desktopCapturer gave, which may not be the size asked', () => {
    const smaller = { width: 1280, height: 800 };
    expect(toImagePixels({ x: 100, y: 50, width: 200, height: 150 }, laptop, smaller)).toEqual({
      x: 100,
      y: 50,
      width: 200,
      height: 150,
    });
  });

  it('finds the display under a point of the virtual desktop, displays left of or above 0 too', () => {
    expect(displayAt({ x: 1300, y: -150 }, [laptop, monitor])).toEqual({
      display: monitor,
      local: { x: 20, y: 50 },
    });
    expect(displayAt({ x: 10, y: 10 }, [laptop, monitor])?.display.id).toBe(1);
    expect(displayAt({ x: -10, y: 10 }, [laptop, monitor])).toBeNull();
  });

  it('asks once for a size that holds every display at its own pixels', () => {
    expect(captureBox([laptop, monitor])).toEqual({ width: 2560, height: 1440 });
  });

  it('brings a crop from an image of another scale to the display’s device pixels', () => {
    // The laptop's image came at 2560 wide (the size asked to fit the monitor): a 200×150 DIP
    // area is still 300×225 of the laptop's own pixels.
    const image = { width: 2560, height: 1600 };
    const rect = { x: 100, y: 50, width: 200, height: 150 };
    expect(toImagePixels(rect, laptop, image)).toEqual({ x: 200, y: 100, width: 400, height: 300 });
    expect(devicePixelSize(rect, laptop)).toEqual({ width: 300, height: 225 });
    expect(devicePixelSize(rect, monitor)).toEqual({ width: 200, height: 150 });
  });

  it('matches screen sources to displays by display_id, or by order where none has one', () => {
    const a = { id: 'screen:0:0', display_id: '2' };
    const b = { id: 'screen:1:0', display_id: '1' };
    expect(matchSources([laptop, monitor], [a, b])).toEqual([
      { display: laptop, source: b },
      { display: monitor, source: a },
    ]);
    const blank = [
      { id: 'screen:0:0', display_id: '' },
      { id: 'screen:1:0', display_id: '' },
    ];
    expect(matchSources([laptop, monitor], blank).map((m) => m.source.id)).toEqual([
      'screen:0:0',
      'screen:1:0',
    ]);
    // Neither ids nor counts to go by: no guess.
    expect(matchSources([laptop, monitor], blank.slice(0, 1))).toEqual([]);
  });
});
