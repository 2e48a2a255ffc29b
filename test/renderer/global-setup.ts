// Vitest's global setup for the renderer run (vitest.renderer.config.ts): launches the one
// Chromium the test files share (shared-browser.ts) and closes it when the run ends.
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { launchOptions } from './browser';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer(launchOptions());
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
