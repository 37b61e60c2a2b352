/**
 * shipcode-mcp: the CLI entry. Flags -> config, --help/--version, stdio wiring, exit codes.
 * The only module that touches Deno.args, Deno.stdin, Deno.stdout and the exit code.
 */

import denoJson from "./deno.json" with { type: "json" };
import { tuneAllocator } from "./lib/cli/allocator.ts";
import { parseArgs, usage } from "./lib/cli/args.ts";
import { TOOL_GROUPS } from "./lib/cli/tool_selection.ts";
import { revokeGit, revokeNativeCode, revokeUnused } from "./lib/cli/permissions.ts";
import { chooseCacheDir } from "./lib/index/store/cache_dir.ts";
import { type CacheWriterHandle, startCacheWriter } from "./lib/index/store/cache_owner.ts";
import { startIndexEarly } from "./lib/index/early_start.ts";
import { prestartSearchWorkers } from "./lib/features/early_workers.ts";
import type { SearchIndex } from "./lib/index/service.ts";
import { detectGit } from "./lib/git/availability.ts";
import { catalogMethods } from "./lib/features/catalog.ts";
import type { LoadedFeatures } from "./lib/features/load.ts";
import { coreMethods } from "./lib/features/lifecycle.ts";
import { after } from "./lib/light_timer.ts";
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
  const config = configOrExit();
  if (typeof config === "number") return config;
  setLogLevel(config.logLevel);
  if (config.serveDaemon) {
    // Before anything large: the allocator's setting holds for every later allocation, and the
    // native-code permission it needs is given up with it.
    log.debug(tuneAllocator());
    // Its first session's grep needs them: they start while the daemon's code loads.
    if (config.root !== null) prestartSearchWorkers();
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
  const session = new Session(config, choice);
  // A relay allocates little: the allocator is tuned (and the native code it needs loaded, about
  // 2 MiB) only if the session ends up running here (throughDaemon); it keeps the permission
  // until then, and gives it up on connecting.
  if (!session.relayed) log.debug(tuneAllocator());
  return await session.serve();
}

/** The parsed flags, or the exit code once --help, --version or a wrong flag has been answered. */
function configOrExit(): Config | number {
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
  return parsed.config;
}

/**
 * What this session offers decides what it may do: the rest is given up before any feature (or
 * library) loads. --tools that leave out every git tool (or every tool that writes) need no git
 * (or write).
 */
function availabilityOf(config: Config, choice: RootChoice): ToolAvailability {
  const chosen = config.tools;
  const wants = (names: readonly string[]) => chosen === null || names.some((n) => chosen.has(n));
  const git = detectGit(choice.root, { enabled: config.git && wants(TOOL_GROUPS.git) });
  return {
    write: config.write && choice.root !== null && wants([...TOOL_GROUPS.edit, "rename_symbol"]),
    git: git.ok,
    gitTarget: git.ok ? git.target : null,
    selected: chosen,
  };
}

/**
 * One stdio session: the protocol core answers at once; the features (tools, resources, their
 * libraries) load after the initialize answer is out, here or through the shared daemon.
 */
class Session {
  readonly #config: Config;
  readonly #choice: RootChoice;
  /** What this session offers, decided when first needed (a relay never needs it). */
  #availability: ToolAvailability | undefined;
  /** Through the shared daemon (lib/daemon/), when asked and a workspace is served. */
  readonly relayed: boolean;
  #cache: CacheWriterHandle | null = null;
  /** With a stored index, the index worker starts before the features load (early_start.ts). */
  #early: SearchIndex | null = null;
  #givenUp = false;
  #features: Promise<LoadedFeatures> | undefined;
  #table: Promise<MethodTable> | undefined;
  #relay: Relay | null = null;

  constructor(config: Config, choice: RootChoice) {
    this.#config = config;
    this.#choice = choice;
    this.relayed = config.daemon && choice.root !== null && Deno.build.os !== "windows";
  }

  get #available(): ToolAvailability {
    return this.#availability ??= availabilityOf(this.#config, this.#choice);
  }

  /** Serves stdin until it ends; the exit code. */
  async serve(): Promise<number> {
    const server = new Server(coreMethods({ name: NAME, version: VERSION }), {
      later: { methods: catalogMethods(), load: () => this.#loadTable() },
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
    const input = this.relayed ? boundedAtEnd(Deno.stdin, () => server.shutdown()) : Deno.stdin;
    await server.serve(input, Deno.stdout, {
      maxMessageBytes: this.#config.maxMessageBytes,
      onInitialized: () => {
        if (this.relayed) this.#loadTable();
        else this.#load().then((loaded) => loaded.warm());
      },
    });
    // A session that ended before any feature loaded gives up the rest all the same.
    if (this.#features === undefined) revokeUnused({ write: false, run: false });
    revokeNativeCode();
    (await this.#features)?.close();
    await this.#relay?.close(SHUTDOWN_FLUSH_MS);
    return 0;
  }

  /**
   * What the session will not use is given up once the initialize answer is out and before any
   * feature module (or library) loads: only the protocol core runs before that. First the index
   * cache: its folder is made and its writer (the only code that may write in a read-only
   * session, and only there) started while the launch permissions still hold; a worker cannot
   * gain a permission later. Done after the answer, so that the answer does not wait for it.
   */
  #giveUp(): void {
    if (this.#givenUp) return;
    this.#givenUp = true;
    const revoke = { write: this.#available.write, run: this.#available.git };
    const root = this.#choice.root;
    const cacheChoice = chooseCacheDir(this.#config, root);
    if (cacheChoice.dir !== null) {
      const started = startCacheWriter(cacheChoice.dir);
      if (typeof started === "string") log.warn(started);
      else this.#cache = started;
    } else if (cacheChoice.note !== "") log.warn(cacheChoice.note);
    revokeUnused(revoke);
    if (this.#cache !== null && root !== null) {
      this.#early = startIndexEarly(root, this.#config, this.#cache);
    }
  }

  /** The features of this process, loaded once (after the permissions are given up). */
  #load(): Promise<LoadedFeatures> {
    // The first grep needs them: they start while the features load.
    if (this.#features === undefined && this.#choice.root !== null) prestartSearchWorkers();
    this.#giveUp();
    return this.#features ??= (import(FEATURES) as Promise<typeof import("./lib/features/load.ts")>)
      .then((module) =>
        module.loadFeatures(
          this.#choice.root,
          this.#config,
          this.#available,
          this.#cache,
          this.#early,
        )
      );
  }

  /**
   * The method table of the later methods: through the daemon when relayed (after the initialize
   * answer the relay connects, starting the daemon when none answers; when it cannot, the session
   * runs here, as with --no-daemon, and one stderr line says why), else this process's features.
   */
  #loadTable(): Promise<MethodTable> {
    return this.#table ??= this.relayed
      ? throughDaemon(this.#choice.root!, this.#config, () => this.#load()).then((through) => {
        this.#relay = through.relay;
        return through.table;
      })
      : this.#load().then((loaded) => loaded.table);
  }
}

/** `input` whose end starts a timer that runs `stop` after SHUTDOWN_FLUSH_MS. */
function boundedAtEnd(input: ByteSource, stop: () => void): ByteSource {
  return {
    async read(buffer) {
      const n = await input.read(buffer);
      if (n === null) after(SHUTDOWN_FLUSH_MS).then(stop);
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
      // The relay runs git never (only the daemon does), and needs no native code.
      revokeGit();
      revokeNativeCode();
      return { table: relay.table(), relay };
    } catch (error) {
      why = `the shared daemon did not start: ${error instanceof Error ? error.message : error}`;
    }
  }
  log.warn(`${why}; this session runs in its own process (as with --no-daemon)`);
  log.debug(tuneAllocator());
  const loaded = await local();
  loaded.warm();
  return { table: loaded.table, relay: null };
}

Deno.exit(await main());
