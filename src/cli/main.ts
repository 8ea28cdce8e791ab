/**
 * `qsargraph`, the command-line client of the service (README "Command-line client"): parses the
 * command line (args.ts), runs the command (commands.ts) and exits with the code of its outcome
 * (errors.ts). Run it with `npx qsargraph …` (bin/qsargraph.js) or `node --import tsx
 * src/cli/main.ts …`. An HTTP client only: it imports nothing of the service but its version.
 */
import { VERSION } from "../version.ts";
import { parseCommandLine, commandUsage } from "./args.ts";
import { Client } from "./client.ts";
import { RUN, type Context } from "./commands.ts";
import { CliError, EXIT, UsageError } from "./errors.ts";

/** An unexpected failure of the client itself (a bug): EX_SOFTWARE of sysexits.h. */
const INTERNAL = 70;

export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const say = (s: string): void => void process.stderr.write(s.endsWith("\n") ? s : `${s}\n`);
  try {
    const parsed = parseCommandLine(argv, env);
    if (parsed.kind === "help") {
      process.stdout.write(parsed.text);
      return EXIT.ok;
    }
    if (parsed.kind === "version") {
      process.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    // Ctrl-C aborts what the command waits for; a second one ends the process at once.
    const interrupt = new AbortController();
    process.once("SIGINT", () => interrupt.abort());
    const { globals } = parsed;
    const ctx: Context = {
      client: new Client({ server: globals.server, ...(globals.token !== undefined ? { token: globals.token } : {}), signal: interrupt.signal }),
      globals,
      io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
      signal: interrupt.signal,
    };
    await RUN[parsed.command]!(ctx, parsed.values, parsed.positionals);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) {
      const usage = err.command ? commandUsage(err.command) : undefined;
      say(`qsargraph: ${err.message}\n${usage ?? "usage: qsargraph [options] <command> [arguments]"}\n(qsargraph --help, qsargraph help <command>)`);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      say(`qsargraph: ${err.message}`);
      return err.exitCode;
    }
    say(`qsargraph: internal error: ${(err as Error)?.stack ?? String(err)}`);
    return INTERNAL;
  }
}

// A reader that stops early (`| head`) is no error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(EXIT.ok);
  throw err;
});

const code = await main(process.argv.slice(2), process.env);
// Exit once stdout is flushed (a pipe is written asynchronously), without waiting for idle sockets.
process.stdout.write("", () => process.exit(code));
