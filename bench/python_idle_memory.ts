// deno-lint-ignore-file no-console
/**
 * Where the Python engine's memory goes after its idle end (docs/BENCHMARKS.md "Semantic:
 * Python"): the engine alone in this process, glibc tuned as the server tunes it
 * (lib/cli/allocator.ts), a 2 s idle end. For each of `--cycles` rounds: whole-root diagnostics
 * and four references questions, then a sample every second for `--watch-s` seconds. Each line
 * gives VmRSS; the worker thread (`worker-N`, present or gone: a worker that was not terminated
 * keeps it); the main isolate's heap (caches on the main thread would grow it); and V8's heap pages
 * still mapped (anonymous 256 KiB mappings: pages of a heap, in use or pooled by V8 for reuse).
 * Run it with the start task's V8 flags, then with others, to compare. With `--quiet`, one cycle
 * and the main thread waits without a timer of its own after the answers: a shell samples VmRSS
 * once a second from outside (a sampling timer would wake the main thread's event loop, which
 * runs the task that gives V8's pooled pages back).
 *
 *   deno run --allow-read --allow-env --allow-ffi --allow-run=cat,sh --unstable-worker-options \
 *     --v8-flags=--max-semi-space-size=4,--heap-growing-percent=20,--memory-pool-timeout=1 \
 *     bench/python_idle_memory.ts --root ../corpora/requests [--cycles 2] [--watch-s 12] [--quiet]
 */
import { flagValue, numFlag } from "./flags.ts";
import { readProc } from "./client.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { pythonEngine } from "../lib/semantic/python/engine.ts";
import { tuneAllocator } from "../lib/cli/allocator.ts";

const ROOT = flagValue("--root") ?? "../corpora/requests";
const CYCLES = numFlag("--cycles", 2);
const WATCH_S = numFlag("--watch-s", 12);
const QUIET = Deno.args.includes("--quiet");
const IDLE_MS = 2000;
const POSITIONS = [
  { path: "src/requests/sessions.py", line: 76, name: "merge_setting" },
  { path: "src/requests/sessions.py", line: 395, name: "Session" },
  { path: "src/requests/models.py", line: 732, name: "Response" },
  { path: "src/requests/_internal_utils.py", line: 26, name: "to_native_string" },
];

function vmRssMiB(): number {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readProc(Deno.pid, "status"))?.[1] ?? NaN) / 1024;
}

/** Resident MiB in anonymous 256 KiB mappings (V8's heap pages). */
function v8PagesMiB(): number {
  let page = false;
  let kib = 0;
  for (const line of readProc(Deno.pid, "smaps").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head !== null) {
      page = head[3] === "" && parseInt(head[2], 16) - parseInt(head[1], 16) === 256 * 1024;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null && page) kib += Number(rss[1]);
  }
  return kib / 1024;
}

/** True while a worker thread (`worker-N`) runs in this process. */
function workerThread(): boolean {
  const out = new Deno.Command("sh", {
    args: ["-c", `cat /proc/${Deno.pid}/task/*/comm`],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return new TextDecoder().decode(out.stdout).split("\n").some((n) => n.startsWith("worker-"));
}

function report(step: string): void {
  const heap = Deno.memoryUsage();
  console.log(
    `| ${step} | ${vmRssMiB().toFixed(0)} | ${v8PagesMiB().toFixed(0)} | ${
      workerThread() ? "running" : "gone"
    } | ${(heap.heapUsed / 1048576).toFixed(1)} |`,
  );
}

/**
 * VmRSS in MiB once a second for `seconds`, sampled by a shell while this thread waits on the
 * shell's exit only (its samples go to a file the shell then prints).
 */
async function sampledOutside(seconds: number): Promise<string> {
  const file = `/tmp/python_idle_memory.${Deno.pid}`;
  const loop = `for i in $(seq 1 ${seconds}); do sleep 1; ` +
    `awk '/VmRSS/{printf "%d ", $2/1024}' /proc/${Deno.pid}/status >> ${file}; done`;
  await new Deno.Command("sh", { args: ["-c", loop], stdout: "null", stderr: "null" }).output();
  const out = await new Deno.Command("sh", {
    args: ["-c", `cat ${file}; rm -f ${file}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

console.error(tuneAllocator());
const ws = Workspace.openSync({ root: ROOT, noIgnore: false, allowSecrets: false });
const signal = new AbortController().signal;
console.log("| step | VmRSS MiB | V8 pages MiB | worker thread | main heap MiB |");
console.log("|---|---|---|---|---|");
report("before");
const engine = pythonEngine({ idleMs: IDLE_MS });
if (QUIET) {
  await engine.ask(ws, { kind: "diagnostics", path: "" }, { signal });
  report("answered");
  console.log(`VmRSS MiB each second after the answer: ${await sampledOutside(WATCH_S)}`);
}
for (let cycle = 1; cycle <= (QUIET ? 0 : CYCLES); cycle++) {
  const found = await engine.ask(ws, { kind: "diagnostics", path: "" }, { signal });
  if (found.kind !== "diagnostics") throw new Error("not a diagnostics answer");
  for (const at of POSITIONS) await engine.ask(ws, { kind: "references", at }, { signal });
  report(`cycle ${cycle}: answered (${found.files} files)`);
  while (engine.running) await new Promise((resolve) => setTimeout(resolve, 10));
  const ended = performance.now();
  for (let s = 1; s <= WATCH_S; s++) {
    await new Promise((resolve) => setTimeout(resolve, ended + s * 1000 - performance.now()));
    report(`cycle ${cycle}: ${s} s after the idle end`);
  }
}
engine.stop();
