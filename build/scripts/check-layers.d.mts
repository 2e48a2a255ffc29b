// Types for check-layers.mjs.
export const LAYERS: { name: string; paths: string[] }[];
export function importGraph(root: string): Map<string, string[]>;
export function findCycles(graph: Map<string, string[]>): string[][];
export function layerOf(file: string): number | undefined;
export function findUpwardImports(
  graph: Map<string, string[]>,
): { from: string; to: string; fromLayer: string; toLayer: string }[];
export function checkLayers(root: string): string[];
