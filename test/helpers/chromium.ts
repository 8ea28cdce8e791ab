/**
 * Debian's Chromium for the browser tests (DEVELOPERS: Chromium from the Debian package
 * `chromium`, driven by playwright-core), installed when missing as debian.ts says.
 */
import { ensureDebianBinary } from "./debian.ts";

export const CHROMIUM = "/usr/bin/chromium";

export function ensureChromium(): string {
  return ensureDebianBinary(CHROMIUM, "chromium");
}

/** Flags for a headless Chromium in a container without a sandbox or GPU. */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
