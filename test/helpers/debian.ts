/**
 * Programs from Debian packages that some tests drive (Chromium for the browser tests, rapper
 * from raptor2-utils as an independent RDF parser). When a program is missing and the tests run
 * as root (as on CI, where the README's test command runs on a clean machine), it is installed
 * with apt-get; otherwise the test fails saying which package to install.
 */
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The lock file that keeps the test processes' apt-get runs one at a time. */
const APT_LOCK = join(tmpdir(), "qsargraph-apt.lock");

/** The path of `binary`, installing Debian package `pkg` first when it is missing and we are root. */
export function ensureDebianBinary(binary: string, pkg: string): string {
  if (existsSync(binary)) return binary;
  if (process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    // One install at a time (.ci/run runs two test runs at once, which may want the same package):
    // under a lock of ours, looked for again once the lock is held; apt's own lock waited for too.
    const install = 'test -e "$1" || { apt-get -o DPkg::Lock::Timeout=300 update && apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "$2"; }';
    const r = spawnSync("flock", [APT_LOCK, "sh", "-c", install, "sh", binary, pkg], { stdio: "inherit", env });
    if (r.status !== 0) throw new Error(`installing Debian's ${pkg} failed (${r.error?.message ?? `exit ${r.status}`})`);
    if (existsSync(binary)) return binary;
  }
  throw new Error(`${binary} is missing: install Debian's ${pkg} package (apt-get install ${pkg})`);
}
