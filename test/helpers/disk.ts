/**
 * A small, real file system for the disk-fault tests (README "Durability"): a tmpfs of a given
 * size, which a test fills to get real ENOSPC from the kernel, frees again, and remounts
 * read-only for EROFS.
 *
 * Why a tmpfs in a mount namespace of its own: the tests run as root (so does CI: `npm ci && npm
 * test` on a Debian machine), where `mount -t tmpfs -o size=…` works; mocking the file system
 * would test nothing the kernel does (short writes at the boundary, ENOSPC, EROFS at open). The
 * mount is made by `unshare --mount` inside a private mount namespace held by a shell waiting on
 * `cat` of this process's pipe: when the test ends in any way — even killed — the pipe closes,
 * the shell unmounts and removes the mount point, and the namespace ends. Nothing is ever
 * mounted in the machine's own namespace. Every process reaches the mounted directory through
 * `/proc/<pid>/root/<path>` of the namespace's process (a plain path, so the server needs no
 * wrapper), and `nsenter` runs the remounts inside the namespace.
 *
 * A remount read-only fails (EBUSY) while a process holds a file of it open for writing — as the
 * server does with its journal — so a tmpfs gives EROFS at start-up, as a server meets a
 * read-only disk after a reboot. `thinDisk` gives the rest: an fsync failing after successful
 * writes, and the kernel's own switch to read-only after it (ext4 aborting its journal).
 */
import { spawn, execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, unlinkSync, writeSync, ftruncateSync, fstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SmallDisk {
  /** The mounted directory, as every process reaches it. */
  readonly dir: string;
  /** Bytes still free on it (statfs). */
  free(): number;
  /** Write filler files until the kernel answers ENOSPC, then give back `leave` bytes (rounded to pages). */
  fill(leave?: number): void;
  /** Remove the filler files. */
  release(): void;
  /** Remount read-only or read-write (read-only fails while a file is open for writing). */
  remount(mode: "ro" | "rw"): void;
  /** Unmount (by ending the namespace) and remove the mount point. */
  close(): Promise<void>;
}

const FILLER = "filler-";

/** A process holding a private mount namespace in which `script` (sh, "$1" = the mount point, then `args`) mounted something. */
async function holdNamespace(script: string, args: readonly string[]): Promise<{ pid: number; mountPoint: string; close(): Promise<void> }> {
  const mountPoint = mkdtempSync(join(tmpdir(), "qsargraph-disk-"));
  // When this process's pipe closes (the test ends, however), `cat` returns and the mount point
  // goes too; the namespace, and with it every mount, ends with the last process in it.
  const holder = spawn("unshare", ["--mount", "--propagation", "private", "sh", "-c", `set -e; ${script}; echo mounted; cat >/dev/null; umount -l "$1"; rmdir "$1"`, "sh", mountPoint, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  holder.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => holder.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.once("data", () => resolve());
    holder.once("exit", (code) => reject(new Error(`could not mount a test file system in a private mount namespace (unshare --mount; the test needs root): exit ${code}: ${err}`)));
  });
  return {
    pid: holder.pid!,
    mountPoint,
    async close() {
      holder.stdin!.end();
      await exited;
      rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

export async function smallDisk(bytes: number): Promise<SmallDisk> {
  const ns = await holdNamespace('mount -t tmpfs -o size="$2" qsargraph-test "$1"', [String(bytes)]);
  const dir = `/proc/${ns.pid}/root${ns.mountPoint}`;
  let fillers = 0;
  return {
    dir,
    free: () => {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    },
    fill(leave = 0) {
      const path = join(dir, `${FILLER}${fillers++}`);
      const fd = openSync(path, "w");
      try {
        const chunk = Buffer.alloc(1 << 20);
        for (let size = chunk.length; size >= 1; ) {
          try {
            if (writeSync(fd, chunk, 0, size) < size) size >>= 1;
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
            size >>= 1;
          }
        }
        if (leave > 0) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leave));
      } finally {
        closeSync(fd);
      }
    },
    release() {
      for (const name of readdirSync(dir)) if (name.startsWith(FILLER)) unlinkSync(join(dir, name));
    },
    remount(mode) {
      execFileSync("nsenter", ["--target", String(ns.pid), "--mount", "mount", "-o", `remount,${mode}`, ns.mountPoint], { stdio: "pipe" });
    },
    close: () => ns.close(),
  };
}

/**
 * A thin-provisioned disk: ext4 of `size` bytes on a loop device whose image lies on a tmpfs of
 * only `backing` bytes. Writes succeed (ext4 sees free space and keeps them in the page cache);
 * the fsync that has to put more than `backing` on the device fails with EIO, ext4 aborts its
 * journal and the kernel turns the file system read-only (EROFS from then on) — what a server
 * meets when the storage under its file system runs out or fails. (The loop device is detached
 * when the namespace ends: `mount -o loop` sets autoclear.)
 */
export async function thinDisk(backing: number, size: number): Promise<{ readonly dir: string; close(): Promise<void> }> {
  const ns = await holdNamespace('mount -t tmpfs -o size="$2" qsargraph-test "$1"; truncate -s "$3" "$1/image"; mkfs.ext4 -q -F "$1/image"; mkdir "$1/fs"; mount -o loop "$1/image" "$1/fs"', [
    String(backing),
    String(size),
  ]);
  return { dir: `/proc/${ns.pid}/root${ns.mountPoint}/fs`, close: () => ns.close() };
}
