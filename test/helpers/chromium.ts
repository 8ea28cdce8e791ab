/**
 * Debian's Chromium for the browser tests (DEVELOPERS: Chromium from the Debian package
 * `chromium`, driven by playwright-core). The README's test command installs it when it is
 * missing and the tests run as root (as on CI); otherwise the test fails saying what to install.
 */
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

export const CHROMIUM = "/usr/bin/chromium";

export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
      const r = spawnSync("apt-get", args, { stdio: "inherit", env });
      if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (${r.status})`);
    }
    if (existsSync(CHROMIUM)) return CHROMIUM;
  }
  throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
}

/** Flags for a headless Chromium in a container without a sandbox or GPU. */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
