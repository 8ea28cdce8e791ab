/**
 * Programs from Debian packages that some tests drive (Chromium for the browser tests, rapper
 * from raptor2-utils as an independent RDF parser). When a program is missing and the tests run
 * as root (as on CI, where the README's test command runs on a clean machine), it is installed
 * with apt-get; otherwise the test fails saying which package to install.
 */
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

/** The path of `binary`, installing Debian package `pkg` first when it is missing and we are root. */
export function ensureDebianBinary(binary: string, pkg: string): string {
  if (existsSync(binary)) return binary;
  if (process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    for (const args of [["update"], ["install", "-y", "--no-install-recommends", pkg]]) {
      const r = spawnSync("apt-get", args, { stdio: "inherit", env });
      if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (${r.status})`);
    }
    if (existsSync(binary)) return binary;
  }
  throw new Error(`${binary} is missing: install Debian's ${pkg} package (apt-get install ${pkg})`);
}
