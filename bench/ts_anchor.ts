/**
 * The TypeScript anchor of the semantic benches (bench/semantic.ts, semantic_navigation.ts,
 * monorepo_diagnostics.ts, monorepo_first.ts): typescript@6.0.3, installed with npm into
 * $BENCH_DIR/ts-anchor (default /var/tmp/shipcode-bench) on the first run, and run standalone
 * under Node by a script of bench/*_anchor.cjs that reads its task as JSON from a file.
 */

const BENCH_DIR = Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench";
const ANCHOR_DIR = `${BENCH_DIR}/ts-anchor`;
const VERSION = "6.0.3";

/** The anchor's typescript module folder, installed first when it is not there. */
export function ensureAnchor(): string {
  const module = `${ANCHOR_DIR}/node_modules/typescript`;
  try {
    Deno.statSync(`${module}/package.json`);
  } catch {
    Deno.mkdirSync(ANCHOR_DIR, { recursive: true });
    const out = new Deno.Command("npm", {
      args: ["install", "--prefix", ANCHOR_DIR, "--no-audit", "--no-fund", `typescript@${VERSION}`],
      stdout: "null",
      stderr: "inherit",
    }).outputSync();
    if (!out.success) throw new Error(`npm install typescript@${VERSION} failed`);
  }
  const version = JSON.parse(Deno.readTextFileSync(`${module}/package.json`)).version;
  if (version !== VERSION) throw new Error(`The anchor has typescript ${version}, not ${VERSION}`);
  return module;
}

/** Writes the task file `name` in the anchor's folder; its path. */
function writeTask(name: string, task: unknown): string {
  const path = `${ANCHOR_DIR}/${name}`;
  Deno.writeTextFileSync(path, JSON.stringify(task));
  return path;
}

/**
 * Runs `script` on `task` (written to the task file `task.name`) with its stdout read as it comes: its lines
 * (one JSON line per phase) and the wall time from the spawn to the first of them.
 */
export async function streamAnchor(
  script: string,
  task: { name: string; content: unknown },
): Promise<{ lines: string[]; firstMs: number }> {
  const path = writeTask(task.name, task.content);
  const t0 = performance.now();
  const child = new Deno.Command("node", {
    args: [script, path],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines: string[] = [];
  let firstMs = 0;
  let partial = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    for (const line of parts) {
      if (lines.length === 0) firstMs = performance.now() - t0;
      lines.push(line);
    }
  }
  await child.status;
  return { lines, firstMs };
}

/**
 * Runs `script` on `task` (written to the task file `task.name`) to its exit: its whole stdout, whether it
 * exited 0, and the wall time from the spawn to the exit.
 */
export function runAnchor(
  script: string,
  task: { name: string; content: unknown },
): { stdout: string; success: boolean; wall: number } {
  const path = writeTask(task.name, task.content);
  const t0 = performance.now();
  const out = new Deno.Command("node", { args: [script, path], stdout: "piped" }).outputSync();
  const wall = performance.now() - t0;
  return { stdout: new TextDecoder().decode(out.stdout), success: out.success, wall };
}
