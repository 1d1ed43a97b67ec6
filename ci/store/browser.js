// Headless Chromium (Debian's, driven by playwright-core) for the site's tests and its scale benchmark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTools } from '../tools.js';

const CHROMIUM_ARGS = Object.freeze(['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']);

/**
 * Launches Chromium with a fresh profile folder (removed again by close()); timezoneId (e.g. 'Asia/Tokyo') sets the page's time zone.
 * Resolves to { context, version, close() }; context.newPage() opens pages.
 */
export async function launchChromium({ viewport = { width: 1280, height: 900 }, timezoneId } = {}) {
  const { chromium: tool } = ensureTools(['chromium']);
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'benchline-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: tool.path, headless: true, viewport, ...(timezoneId ? { timezoneId } : {}), args: [...CHROMIUM_ARGS] });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  return {
    context,
    version: tool.version,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
