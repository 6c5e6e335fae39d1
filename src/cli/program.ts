/**
 * The `gardener` command line, parsed by commander. Each action is thin and loads its command
 * module lazily, so `gardener --help` pays only for what it uses. main.ts loads this file for
 * every command line except the plain `gardener mcp [--root DIR]` an agent host launches
 * (mcp-fast-path.ts), which never loads commander.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { reportError } from './output.js';

const program = new Command()
  .name('gardener')
  .description('A shared, honest, always-fresh memory of a code repository for coding agents.')
  .version(VERSION)
  .exitOverride()
  .configureOutput({ outputError: (str, write) => write(str) });

program
  .command('init')
  .description('create (or refresh) the brain for a folder and ingest it fully')
  .argument('[dir]', 'the folder to ingest', '.')
  .option('--json', 'print one JSON object')
  .option('--max-files <n>', 'files per drain batch', '32')
  .action(async (dir, opts) => (await import('./commands/init.js')).init(dir, opts));

program
  .command('tick')
  .description('run one tick now: detect what changed, queue it, drain the backlog')
  .argument('[dir]', 'a folder covered by the brain', '.')
  .option('--json', 'print one JSON object')
  .option('--max-files <n>', 'files per drain batch', '32')
  .action(async (dir, opts) => (await import('./commands/tick.js')).tick(dir, opts));

program
  .command('status')
  .description("show a brain's roots, counts, backlog, arming and freshness")
  .argument('[dir]', 'a folder covered by the brain', '.')
  .option('--json', 'print one JSON object')
  .action(async (dir, opts) => (await import('./commands/status.js')).status(dir, opts));

program
  .command('seek')
  .description('search the code map: symbol definitions first, then full text')
  .argument('<query>', 'words or an identifier')
  .option('--root <dir>', 'a folder covered by the brain', '.')
  .option('--limit <n>', 'most results', '20')
  .option('--json', 'print a JSON array')
  .action(async (query, opts) => (await import('./commands/seek.js')).seek(query, opts));

program
  .command('refs')
  .description("who uses a name: its definitions, then every use (path, line, enclosing definition, kind)")
  .argument('<name>', 'an identifier, exactly as written (case-sensitive)')
  .option('--root <dir>', 'a folder covered by the brain', '.')
  .option('--path <file>', 'only the definition in this file, when the name has several')
  .option('--limit <n>', 'most files of uses', '50')
  .option('--json', 'print one JSON object')
  .action(async (name, opts) => (await import('./commands/refs.js')).refs(name, opts));

program
  .command('impact')
  .description('what may break if a file or a name changes: its users and importers, transitively, and the tests among them')
  .argument('<path-or-name>', 'a file inside the brain, or a defined name')
  .option('--root <dir>', 'a folder covered by the brain', '.')
  .option('--depth <n>', 'import steps to follow (1 to 4)', '2')
  .option('--json', 'print one JSON object')
  .action(async (target, opts) => (await import('./commands/impact.js')).impact(target, opts));

const daemon = program.command('daemon').description('arm, disarm or inspect the vigil of a brain (persisted in its store)');
for (const [name, what] of [
  ['start', 'arm the brain: traffic advances its freshness'],
  ['stop', 'disarm the brain'],
  ['status', "report the brain's arming and freshness honestly"],
] as const) {
  daemon
    .command(name)
    .description(what)
    .argument('[dir]', 'a folder covered by the brain', '.')
    .option('--json', 'print one JSON object')
    .action(async (dir, opts) => (await import('./commands/daemon.js')).daemon(name, dir, opts));
}

const skeleton = program
  .command('skeleton')
  .description("print the brain's skeleton (ratified, else the candidate): rooms, files, imports between rooms")
  .argument('[dir]', 'a folder covered by the brain', '.')
  .option('--json', 'print one JSON object')
  .action(async (dir, opts) => (await import('./commands/skeleton.js')).showSkeleton(dir, opts));
// `--json` after a subcommand is parsed by the parent (it declares it too): read both.
skeleton
  .command('candidate')
  .description('propose a candidate skeleton from the code map (after a tick)')
  .argument('[dir]', 'a folder covered by the brain', '.')
  .option('--json', 'print one JSON object')
  .action(async (dir, _opts, cmd: Command) => (await import('./commands/skeleton.js')).candidateSkeleton(dir, cmd.optsWithGlobals()));
skeleton
  .command('check')
  .description('recompute the ratified skeleton now; exit 1 if an import breaks may_use or a file is in no room')
  .argument('[dir]', 'a folder covered by the brain', '.')
  .option('--json', 'print one JSON object')
  .action(async (dir, _opts, cmd: Command) => (await import('./commands/skeleton.js')).checkSkeleton(dir, cmd.optsWithGlobals()));

// The plain forms (`mcp`, `mcp --root DIR`) never reach commander: see mcp-fast-path.ts.
program
  .command('mcp')
  .description('serve MCP over stdio for an agent host (logs on stderr)')
  .option('--root <dir>', 'the session folder (default: the working directory)')
  .action(async (opts) => (await import('./commands/mcp.js')).mcp(opts));

const service = program.command('service').description('run the owner (gardener serve) as a systemd user service or a launchd agent');
for (const [name, what] of [
  ['install', 'write the unit (or plist), enable and start it; re-running is safe'],
  ['uninstall', 'stop, disable and remove it (nothing installed is not an error)'],
  ['status', 'what the service manager says, and whether the installed file is current'],
  ['print', 'write the unit (or plist) to stdout and change nothing'],
] as const) {
  service
    .command(name)
    .description(what)
    .option('--systemd', 'use systemd (default on Linux)')
    .option('--launchd', 'use launchd (default on macOS)')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/service.js')).service(name, opts));
}

const hosts = program
  .command('hosts')
  .description('list the agent hosts (Claude Code, Codex, Gemini CLI, Cursor, VS Code, Claude Desktop, Windsurf) and where Gardener is configured')
  .option('--root <dir>', 'a folder of the project', '.')
  .option('--json', 'print one JSON object')
  .action(async (opts) => (await import('./commands/hosts.js')).hostsList(opts));
for (const [name, what] of [
  ['install', 'configure Gardener in a host (its own CLI where it has one, else its config file, with a backup)'],
  ['print', 'print the exact lines install would run or write, and change nothing'],
  ['uninstall', "remove Gardener's entry from a host (and nothing else)"],
] as const) {
  hosts
    .command(name)
    .description(what)
    .argument('<host>', 'claude-code, codex, gemini, cursor, vscode, claude-desktop or windsurf')
    .option('--root <dir>', 'a folder of the project', '.')
    .option('--scope <scope>', "user or project (default: the host's private per-user entry)")
    .option('--http', 'reach the owner over HTTP (token by reference) instead of launching gardener mcp', false)
    .option('--guide', "also add (uninstall: remove) a Gardener block in the project's CLAUDE.md / GEMINI.md / AGENTS.md", false)
    .option('--json', 'print one JSON object')
    .action(async (host, _opts, cmd: Command) => (await import('./commands/hosts.js')).hostsCommand(name, host, cmd.optsWithGlobals()));
}

program
  .command('serve')
  .description('run the owner in the foreground: one process for every agent session of this home (socket, HTTP, REST)')
  .option('--port <n>', 'HTTP port on 127.0.0.1 (0 picks a free one, written to run/owner.json)', '7171')
  .option('--host <addr>', 'HTTP bind address', '127.0.0.1')
  .option('--allow-remote', 'allow a --host that is not loopback (the token is still required)')
  .option('--no-http', 'serve the Unix socket only')
  .option('--max-brains <n>', 'most brains kept open (least recently used closed first)', '16')
  .option('--status', 'report the running owner and exit')
  .option('--stop', 'stop the running owner and wait until it has exited')
  .option('--json', 'print one JSON object')
  .action(async (opts) => (await import('./commands/serve.js')).serve(opts));

program
  .command('open [dir]')
  .description("print a one-time login URL for the owner's page (last line), opening it in the desktop's browser when there is one")
  .option('--no-browser', 'only print the URL')
  .option('--json', 'print one JSON object')
  .action(async (dir, opts) => (await import('./commands/open.js')).open(dir, opts));

program
  .command('token')
  .description("print the owner's HTTP bearer token (made on first use, kept in <home>/token, 0600)")
  .option('--json', 'print one JSON object')
  .action(async (opts) => (await import('./commands/token.js')).token(opts));

program
  .command('bench')
  .description('measure the cost of 10/100/1000-file bursts on temporary repositories')
  .option('--sizes <list>', 'burst sizes, comma-separated', '10,100,1000')
  .option('--base-files <n>', 'files in the base repository', '5000')
  .option('--runs <n>', 'runs per size (medians are reported)', '3')
  .option('--full', 'the full bench (what docs/benchmarks.md shows): also the watcher, the owner, refs/impact and the references\' cost; without it, the quick bench')
  .option('--no-mcp', 'skip MCP cold initialize and server-side seek latency')
  .option('--large-repo', 'the large-repository case instead: init, idle tick, a 1000-file burst and the watcher at --base-files, beside 5000 files (not for CI)')
  .option('--repo-cache <dir>', 'keep the generated repositories in this folder and reuse them on the next run')
  .option('--json', 'print one JSON object')
  .action(async (opts) => (await import('./commands/bench.js')).bench(opts));

program
  .command('brains')
  .description('list every brain of the home: its folders (gone or there) and the disk it takes; --prune removes the ones whose folders are gone')
  .option('--prune', 'remove the brains whose folders are all gone, and brain folders no registry entry names')
  .option('--remove <id-or-dir>', 'remove one brain, by id or by the folder that is its root')
  .option('--dry-run', 'with --prune or --remove: say what would be removed, remove nothing')
  .option('--json', 'print one JSON object')
  .action(async (opts) => (await import('./commands/brains.js')).brains(opts));

const notes = program
  .command('notes')
  .description('list the notes with their scope (private, team), ties and stale marks (docs/notes.md)')
  .option('--root <dir>', 'a folder covered by the brain', '.')
  .option('--json', 'print a JSON array')
  .action(async (opts) => (await import('./commands/notes.js')).listNotes(opts));
notes
  .command('share')
  .description('write a private note out as a team note file in the notes folder (.gardener/notes/ unless .gardener/config.json names another)')
  .argument('<id>', 'the note id')
  .option('--json', 'print one JSON object')
  // --root belongs to \`notes\` (commander reads a parent's option anywhere on the line).
  .action(async (id, _opts, cmd: Command) => (await import('./commands/notes.js')).shareNote(id, cmd.optsWithGlobals()));
notes
  .command('unshare')
  .description("take a team note back: its file is removed, the note stays private")
  .argument('<id>', 'the note id')
  .option('--json', 'print one JSON object')
  // --root belongs to \`notes\` (commander reads a parent's option anywhere on the line).
  .action(async (id, _opts, cmd: Command) => (await import('./commands/notes.js')).unshareNote(id, cmd.optsWithGlobals()));

program
  .command('forget')
  .description("delete a note (a team note's file too)")
  .argument('<id>', 'the note id')
  .option('--root <dir>', 'a folder covered by the brain', '.')
  .option('--json', 'print one JSON object')
  .action(async (id, opts) => (await import('./commands/notes.js')).forgetNote(id, opts));

/** Parses `argv` (as process.argv) and runs the command; sets process.exitCode. */
export async function runProgram(argv: readonly string[]): Promise<void> {
  try {
    await program.parseAsync(argv as string[]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; usage errors are bad input: exit 2.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
    } else {
      process.exitCode = reportError(err);
    }
  }
}
