// deno-lint-ignore-file no-console
/**
 * Edit benchmark (docs/BENCHMARKS.md "Edits"): edit_file's work on a 100 KB source file (resolve
 * for writing, lock, read, SHA-256, read-before-write check, unique match, diff, atomic write,
 * SHA-256 of the result) against the floor: a raw read plus an atomic write of the same bytes
 * (temp file, fsync, rename, folder fsync). Both in one process, interleaved, same file, same run.
 * Then the same through the real server (`--write`): a tools/call edit_file round trip from this
 * client, interleaved with the same floor.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/edits.ts [--rounds 200]
 */
import { loadAverage, Peer } from "./client.ts";
import { oursCommand } from "./servers.ts";
import { writeAtomic } from "../lib/edits/atomic_write.ts";
import { EditSession } from "../lib/edits/edit_session.ts";
import { loadDiffLibrary } from "../lib/edits/diff.ts";
import { editFile } from "../lib/edits/operations.ts";
import { recordFileRead } from "../lib/edits/record_read.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { numFlag } from "./flags.ts";

const ROUNDS = numFlag("--rounds", 200);
const LIMITS = { maxBytes: 10 * 1024 * 1024 };

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const base = await Deno.makeTempDir({ prefix: "shipcode-bench-edits-" });
const root = `${base}/root`;
await Deno.mkdir(`${root}/src`, { recursive: true });
// ~100 KB of source-like lines, one marker line in the middle.
const lines: string[] = [];
for (let i = 0; lines.join("\n").length < 100_000; i++) {
  lines.push(
    i === 1200
      ? "const marker = 0;"
      : `export function f${i}(x: number): number { return x * ${i}; }`,
  );
}
const text = lines.join("\n") + "\n";
await Deno.writeTextFile(`${root}/src/big.ts`, text);
const size = (await Deno.stat(`${root}/src/big.ts`)).size;

const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
const edits = new EditSession();
await loadDiffLibrary();
{
  const opened = await ws.openFile("src/big.ts");
  opened.file.close();
  await recordFileRead(edits, ws, "src/big.ts", { ...opened, maxBytes: LIMITS.maxBytes });
}

let flip = 0;
async function oneEdit(): Promise<number> {
  const [from, to] = flip++ % 2 === 0 ? ["marker = 0", "marker = 1"] : ["marker = 1", "marker = 0"];
  const t = performance.now();
  await editFile(ws, edits, {
    input: "src/big.ts",
    oldString: from,
    newString: to,
    replaceAll: false,
    dryRun: false,
  }, LIMITS);
  return performance.now() - t;
}

const realDir = `${ws.root}/src`;
async function oneFloor(): Promise<number> {
  const t = performance.now();
  const bytes = await Deno.readFile(`${realDir}/big.ts`);
  await writeAtomic(realDir, "big.ts", bytes, { mode: 0o644 });
  return performance.now() - t;
}

// Warm both paths (JIT, page cache), then interleave so both see the same noise.
for (let i = 0; i < 20; i++) {
  await oneEdit();
  await oneFloor();
}
const editMs: number[] = [];
const floorMs: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  editMs.push(await oneEdit());
  floorMs.push(await oneFloor());
}

// Through the real server: what a client sees (JSON-RPC, argument checks, the tool layer).
const server = new Peer("ours", oursCommand(root, ["--write"]), { stderr: "inherit" });
await server.handshake();
await server.request("tools/call", {
  name: "read_file",
  arguments: { path: "src/big.ts", limit: 1 },
});
let flip2 = 0;
async function oneCall(): Promise<number> {
  const [from, to] = flip2++ % 2 === 0
    ? ["marker = 0", "marker = 1"]
    : ["marker = 1", "marker = 0"];
  const t = performance.now();
  const answer = await server.request("tools/call", {
    name: "edit_file",
    arguments: { path: "src/big.ts", old_string: from, new_string: to },
  });
  const ms = performance.now() - t;
  const result = answer.result as { isError?: boolean; content: { text: string }[] };
  if (result.isError) throw new Error(`edit_file failed: ${result.content[0].text}`);
  return ms;
}
// The file holds "marker = 0" again after an even number of edits above.
for (let i = 0; i < 20; i++) {
  await oneCall();
  await oneFloor();
}
const callMs: number[] = [];
const floor2Ms: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  callMs.push(await oneCall());
  floor2Ms.push(await oneFloor());
}
await server.close();
await Deno.remove(base, { recursive: true });

const load = loadAverage();
const row = (name: string, ms: number[]) =>
  `| ${name} | ${quantile(ms, 0.5).toFixed(2)} | ${quantile(ms, 0.9).toFixed(2)} |`;
console.log(`file: ${size} bytes, ${ROUNDS} rounds each, interleaved; load average ${load}`);
console.log("| path | median ms | p90 ms |");
console.log("|---|---|---|");
console.log(row("edit_file (operations layer)", editMs));
console.log(row("floor: raw read + atomic write", floorMs));
console.log(row("edit_file via the server (tools/call round trip)", callMs));
console.log(row("floor, interleaved with the round trips", floor2Ms));
const extra = quantile(editMs, 0.5) - quantile(floorMs, 0.5);
const extra2 = quantile(callMs, 0.5) - quantile(floor2Ms, 0.5);
console.log(
  `edit costs ${extra.toFixed(2)} ms more than the floor at the median (target: <= 10 ms)`,
);
console.log(`through the server: ${extra2.toFixed(2)} ms more than the floor at the median`);
