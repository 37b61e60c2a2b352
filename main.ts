/**
 * shipcode-mcp: the CLI entry. Flags -> config, --help/--version, stdio wiring, exit codes.
 * The only module that touches Deno.args, Deno.stdin, Deno.stdout and the exit code.
 */

import denoJson from "./deno.json" with { type: "json" };
import { tuneAllocator } from "./lib/cli/allocator.ts";
import { parseArgs, usage } from "./lib/cli/args.ts";
import { TOOL_GROUPS } from "./lib/cli/tool_selection.ts";
import { revokeGit, revokeUnused } from "./lib/cli/permissions.ts";
import { chooseCacheDir } from "./lib/index/store/cache_dir.ts";
import { type CacheWriterHandle, startCacheWriter } from "./lib/index/store/cache_owner.ts";
import { startIndexEarly } from "./lib/index/early_start.ts";
import type { SearchIndex } from "./lib/index/service.ts";
import { detectGit } from "./lib/git/availability.ts";
import { catalogMethods } from "./lib/features/catalog.ts";
import type { LoadedFeatures } from "./lib/features/load.ts";
import { coreMethods } from "./lib/features/lifecycle.ts";
import { log, setLogLevel } from "./lib/log.ts";
import { type ByteSource, Server } from "./lib/server/server.ts";
import type { MethodTable } from "./lib/server/method.ts";
import type { Config } from "./lib/config.ts";
import type { Relay } from "./lib/daemon/relay.ts";
import type { ToolAvailability } from "./lib/tools/index.ts";
import { chooseRoot, type RootChoice } from "./lib/workspace/root.ts";

const NAME = "shipcode-mcp";
/**
 * Loaded after the handshake. A specifier in a variable is not part of the start-up module graph:
 * Deno would otherwise read and analyse every module behind it (and resolve the npm packages they
 * import) before answering anything. `deno compile --include lib/` bundles it all the same.
 */
const FEATURES = new URL("./lib/features/load.ts", import.meta.url).href;
/** The relay (this process passes the session to the shared daemon) and the daemon itself. */
const RELAY = new URL("./lib/daemon/relay.ts", import.meta.url).href;
const DAEMON = new URL("./lib/daemon/daemon.ts", import.meta.url).href;
const VERSION: string = denoJson.version;
/** How long SIGINT/SIGTERM wait for queued answers to be written before exiting. */
const SHUTDOWN_FLUSH_MS = 1000;

function writeStdout(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let done = 0;
  while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
}

async function main(): Promise<number> {
  // Before anything else: the allocator's setting holds for every later allocation, and the
  // native-code permission it needs is given up with it.
  const allocator = tuneAllocator();
  const parsed = parseArgs(Deno.args);
  if (parsed.kind === "help") {
    writeStdout(usage(VERSION));
    return 0;
  }
  if (parsed.kind === "version") {
    writeStdout(`${NAME} ${VERSION}\n`);
    return 0;
  }
  if (parsed.kind === "error") {
    Deno.stderr.writeSync(
      new TextEncoder().encode(`${NAME}: ${parsed.message}\n\n${usage(VERSION)}`),
    );
    return 2;
  }
  const config = parsed.config;
  setLogLevel(config.logLevel);
  log.debug(allocator);
  if (config.serveDaemon) {
    const daemon = await import(DAEMON) as typeof import("./lib/daemon/daemon.ts");
    return await daemon.serveDaemon(config, VERSION);
  }

  let choice: RootChoice;
  try {
    choice = chooseRoot(config);
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (choice.notice !== undefined) log.warn(choice.notice);

  // What this session offers decides what it may do: the rest is given up before any feature
  // (or library) loads.
  // --tools that leave out every git tool (or every tool that writes) need no git (or write).
  const chosen = config.tools;
  const wants = (names: readonly string[]) => chosen === null || names.some((n) => chosen.has(n));
  const git = detectGit(choice.root, { enabled: config.git && wants(TOOL_GROUPS.git) });
  const available: ToolAvailability = {
    write: config.write && choice.root !== null && wants([...TOOL_GROUPS.edit, "rename_symbol"]),
    git: git.ok,
    gitTarget: git.ok ? git.target : null,
    selected: chosen,
  };
  // What the session will not use is given up once the initialize answer is out and before any
  // feature module (or library) loads: only the protocol core runs before that. First the index
  // cache: its folder is made and its writer (the only code that may write in a read-only
  // session, and only there) started while the launch permissions still hold; a worker cannot
  // gain a permission later. Done after the answer, so that the answer does not wait for it.
  let cache: CacheWriterHandle | null = null;
  /** With a stored index, the index worker starts before the features load (early_start.ts). */
  let early: SearchIndex | null = null;
  let givenUp = false;
  const giveUp = (withCache = true) => {
    if (givenUp) return;
    givenUp = true;
    if (!withCache) {
      revokeUnused({ write: available.write, run: available.git });
      return;
    }
    const cacheChoice = chooseCacheDir(config, choice.root);
    if (cacheChoice.dir !== null) {
      const started = startCacheWriter(cacheChoice.dir);
      if (typeof started === "string") log.warn(started);
      else cache = started;
    } else if (cacheChoice.note !== "") log.warn(cacheChoice.note);
    revokeUnused({ write: available.write, run: available.git });
    if (cache !== null && choice.root !== null) early = startIndexEarly(choice.root, config, cache);
  };

  // The features (tools, resources, their libraries) load after the initialize answer is out.
  let features: Promise<LoadedFeatures> | undefined;
  const load = () => {
    giveUp();
    return features ??= (import(FEATURES) as Promise<typeof import("./lib/features/load.ts")>)
      .then((module) => module.loadFeatures(choice.root, config, available, cache, early));
  };
  // Through the shared daemon (lib/daemon/), when asked and a workspace is served: after the
  // initialize answer, the relay connects (starting the daemon when none answers); when it
  // cannot, the session runs here, as with --no-daemon, and one stderr line says why.
  const relayed = config.daemon && choice.root !== null && Deno.build.os !== "windows";
  let relay: Relay | null = null;
  let table: Promise<MethodTable> | undefined;
  const loadTable = () =>
    table ??= relayed
      ? throughDaemon(choice.root!, config, load).then((through) => {
        relay = through.relay;
        return through.table;
      })
      : load().then((loaded) => loaded.table);
  const server = new Server(coreMethods({ name: NAME, version: VERSION }), {
    later: { methods: catalogMethods(), load: loadTable },
  });

  const stop = () => {
    // What was queued is flushed, but a client that stopped reading cannot hold the exit up.
    const late = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_FLUSH_MS));
    Promise.race([server.shutdown(), late]).finally(() => Deno.exit(0));
  };
  // Registered before the first read: a client may signal as soon as it has the handshake.
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);

  // A relay whose host closed stdin lets the calls in the daemon finish for at most
  // SHUTDOWN_FLUSH_MS, then cancels what is left.
  const input = relayed ? boundedAtEnd(Deno.stdin, () => server.shutdown()) : Deno.stdin;
  const served = server.serve(input, Deno.stdout, {
    maxMessageBytes: config.maxMessageBytes,
    onInitialized: () => {
      if (relayed) loadTable();
      else load().then((loaded) => loaded.warm());
    },
  });
  await served;
  // A session that ended before any feature loaded gives up the rest all the same.
  giveUp(false);
  (await features)?.close();
  await (relay as Relay | null)?.close(SHUTDOWN_FLUSH_MS);
  return 0;
}

/** `input` whose end starts a timer that runs `stop` after SHUTDOWN_FLUSH_MS. */
function boundedAtEnd(input: ByteSource, stop: () => void): ByteSource {
  return {
    async read(buffer) {
      const n = await input.read(buffer);
      if (n === null) Deno.unrefTimer(setTimeout(stop, SHUTDOWN_FLUSH_MS));
      return n;
    },
  };
}

/**
 * The method table of a relayed session: the daemon's, or this process's own features (loaded
 * by `local`) when there can be no daemon, said in one stderr line.
 */
async function throughDaemon(
  root: string,
  config: Config,
  local: () => Promise<LoadedFeatures>,
): Promise<{ table: MethodTable; relay: Relay | null }> {
  const module = await import(RELAY) as typeof import("./lib/daemon/relay.ts");
  const plan = await module.planRelay(root, config, {
    version: VERSION,
    // From source, the daemon runs with the start task's flags (the launch line's words).
    runFlags: module.runFlags(denoJson.tasks.start.command),
  });
  let why: string;
  if ("why" in plan) why = plan.why;
  else {
    const relay = new module.Relay(plan);
    try {
      await relay.connect();
      // The relay runs git never: only the daemon does.
      revokeGit();
      return { table: relay.table(), relay };
    } catch (error) {
      why = `the shared daemon did not start: ${error instanceof Error ? error.message : error}`;
    }
  }
  log.warn(`${why}; this session runs in its own process (as with --no-daemon)`);
  const loaded = await local();
  loaded.warm();
  return { table: loaded.table, relay: null };
}

Deno.exit(await main());
