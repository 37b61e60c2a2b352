/**
 * shipcode-mcp: the CLI entry. Flags -> config, --help/--version, stdio wiring, exit codes.
 * The only module that touches Deno.args, Deno.stdin, Deno.stdout and the exit code.
 */

import denoJson from "./deno.json" with { type: "json" };
import { parseArgs, usage } from "./lib/cli/args.ts";
import { buildMethods } from "./lib/features/methods.ts";
import { warmToolChecks } from "./lib/features/tools.ts";
import { warmValidator } from "./lib/features/arguments.ts";
import { log, setLogLevel } from "./lib/log.ts";
import { createResourceProvider } from "./lib/resources/provider.ts";
import { HeavySlots } from "./lib/server/heavy_slots.ts";
import { Server } from "./lib/server/server.ts";
import { TOOLS, warmUp as warmTools } from "./lib/tools/index.ts";
import { openWorkspace } from "./lib/workspace/open.ts";

const NAME = "shipcode-mcp";
const VERSION: string = denoJson.version;

function writeStdout(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let done = 0;
  while (done < bytes.length) done += Deno.stdout.writeSync(bytes.subarray(done));
}

async function main(): Promise<number> {
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

  let opened;
  try {
    opened = await openWorkspace(config);
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (opened.notice !== undefined) log.warn(opened.notice);

  const tools = { tools: TOOLS, workspace: opened.workspace, config, heavy: new HeavySlots(2) };
  const resources = createResourceProvider(opened.workspace, config);
  const server = new Server(
    buildMethods({ info: { name: NAME, version: VERSION }, tools, resources }),
  );

  const stop = () => {
    server.shutdown().finally(() => Deno.exit(0));
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);

  await server.serve(Deno.stdin, Deno.stdout, {
    maxMessageBytes: config.maxMessageBytes,
    onInitialized: () => {
      warmValidator();
      warmToolChecks(tools);
      warmTools();
      resources.warm();
    },
  });
  return 0;
}

Deno.exit(await main());
