// deno-lint-ignore-file no-console
/**
 * find_symbol's shortcuts change no answer (docs/BENCHMARKS.md "Symbols"): for each name, the
 * definitions the server gives (the scan's verdicts, bodies cut, files pruned, big files
 * filtered) against those of parsing every candidate whole in-process (every file `rg -lw NAME`
 * lists in a supported language, the symbol service with no shortcut), compared as
 * `path:line kind name` sets.
 *
 *   BENCH_CORPUS=/path/to/linux-source-6.1 \
 *     deno run --allow-read --allow-run --allow-env --unstable-worker-options bench/symbols_equality.ts [--names a,b]
 */
import { parseLine, Peer } from "./client.ts";
import { CORPUS, oursCommand, requireCorpusAndServer, serverLabel } from "./servers.ts";
import { flagValue } from "./flags.ts";
import { SymbolService } from "../lib/symbols/service.ts";
import { languageOf } from "../lib/symbols/languages.ts";
import type { CodeSymbol } from "../lib/symbols/types.ts";
import { Workspace } from "../lib/workspace/workspace.ts";

const NAMES = flagValue("--names")?.split(",") ?? [
  "task_struct",
  "kmalloc",
  "list_head",
  "spinlock_t",
  "jiffies",
  "current",
  "kmem_cache_create",
  "u32",
  "mutex",
];

requireCorpusAndServer();

function wholeParse(service: SymbolService, ws: Workspace, name: string): Promise<Set<string>> {
  const out = new Deno.Command("rg", {
    args: ["-lw", "--hidden", "-L", "--no-unicode", name, "."],
    cwd: CORPUS,
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const paths = new TextDecoder().decode(out.stdout).split("\n")
    .map((p) => p.replace(/^\.\//, "")).filter((p) => p !== "" && languageOf(p) !== null);
  const found = new Set<string>();
  const visit = (path: string, list: readonly CodeSymbol[]) => {
    for (const s of list) {
      if (s.name === name) found.add(`${path}:${s.line} ${s.kind} ${s.name}`);
      if (s.children !== undefined) visit(path, s.children);
    }
  };
  return service.eachFile(ws, paths, {
    signal: new AbortController().signal,
    maxBytes: 10 * 1024 * 1024,
  }, (path, outcome) => {
    if (outcome.ok) visit(path, outcome.symbols);
  }).then(() => found);
}

const ws = Workspace.openSync({ root: CORPUS, noIgnore: false, allowSecrets: false });
const peer = new Peer("equality", oursCommand(CORPUS, ["--no-index"]), { stderr: "inherit" });
await peer.handshake();
console.log(`Server: ${serverLabel()}; corpus ${CORPUS}\n`);
console.log("| name | server | whole parse | equal | only the server | only the whole parse |");
console.log("|---|---:|---:|---|---|---|");
let unequal = 0;
for (const name of NAMES) {
  const a = await peer.requestLine("tools/call", {
    name: "find_symbol",
    arguments: { name, head_limit: 0 },
  }, { timeoutMs: 900_000 });
  const msg = parseLine(a.line) as { result?: { structuredContent?: { symbols: string[] } } };
  const server = new Set(
    (msg.result?.structuredContent?.symbols ?? []).map((s) =>
      s.replace(/-\d+: /, " ").replace(/ {2}\(in .*\)$/, "")
    ),
  );
  // A fresh service per name: no cache entry of another call.
  const service = new SymbolService({ cacheBytes: 0 });
  const whole = await wholeParse(service, ws, name);
  service.stop();
  const onlyServer = [...server].filter((s) => !whole.has(s));
  const onlyWhole = [...whole].filter((s) => !server.has(s));
  if (onlyServer.length + onlyWhole.length > 0) unequal++;
  console.log(
    `| ${name} | ${server.size} | ${whole.size} | ${
      onlyServer.length + onlyWhole.length === 0 ? "yes" : "**no**"
    } | ${onlyServer.slice(0, 3).join(", ")} | ${onlyWhole.slice(0, 3).join(", ")} |`,
  );
}
await peer.close();
if (unequal > 0) console.log(`\n${unequal} of ${NAMES.length} names differ`);
