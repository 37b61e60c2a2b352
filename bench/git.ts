// deno-lint-ignore-file no-console
/**
 * Git tools benchmark: each tool through the real server (client round trip) against the git CLI
 * running the same command from this process, side by side in one run (alternating, warm cache).
 * Target (docs/tools.md, "Git tools"): tool median <= raw git median + 10 ms. Also reports a bare
 * `git --version` spawn (the machine's process cost right now), the server's peak RSS, and CPU time
 * per call on both sides (wall time on a loaded machine is mostly waiting for a core; CPU is not).
 *
 *   deno run --allow-read --allow-run --allow-env bench/git.ts \
 *     --repo ../corpora/express --status-repo ../corpora/linux-git [--rounds 15]
 *
 * --repo: a clone with long history (e.g. expressjs/express, 6,158 commits); --status-repo: a
 * kernel-sized work tree committed into git (only git_status runs there; optional).
 */
import { loadAverage, Peer, readProc } from "./client.ts";
import { median, oursCommand, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";

const REPO = flagValue("--repo") ?? "../corpora/express";
const STATUS_REPO = flagValue("--status-repo") ?? null;
const ROUNDS = numFlag("--rounds", 15);

interface Case {
  label: string;
  tool: string;
  args: Record<string, unknown>;
  /** The git CLI command a user would run for the same answer. */
  raw: string[];
}

function gitOut(root: string, ...args: string[]): string {
  const out = new Deno.Command("git", { args, cwd: root, stdout: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout).trim();
}

/** A file with long history in the repository: the most often changed one among tracked files. */
function busyFile(root: string): string {
  const names = gitOut(root, "log", "--format=", "--name-only", "-n", "2000").split("\n");
  const counts = new Map<string, number>();
  for (const n of names) if (n !== "") counts.set(n, (counts.get(n) ?? 0) + 1);
  const tracked = new Set(gitOut(root, "ls-files").split("\n"));
  return [...counts].filter(([n]) => tracked.has(n) && /\.(js|ts|c|py)$/.test(n))
    .sort((a, b) => b[1] - a[1])[0][0];
}

const LOG = "--format=%H%x00%h%x00%P%x00%an%x00%ae%x00%aI%x00%s";

function cases(root: string): Case[] {
  const file = busyFile(root);
  const commits = Number(gitOut(root, "rev-list", "--count", "HEAD"));
  const deep = Math.min(5000, commits - 30);
  return [
    {
      label: "git_status (clean tree)",
      tool: "git_status",
      args: {},
      raw: ["status", "--porcelain=v2", "-z", "--branch"],
    },
    {
      label: "git_log (first page, 20)",
      tool: "git_log",
      args: {},
      raw: ["log", "-z", LOG, "-n21"],
    },
    {
      label: `git_log (offset ${deep})`,
      tool: "git_log",
      args: { offset: deep },
      raw: ["log", "-z", LOG, `--skip=${deep}`, "-n21"],
    },
    {
      label: `git_log path=${file}`,
      tool: "git_log",
      args: { path: file },
      raw: ["log", "-z", LOG, "-n21", "--", file],
    },
    {
      label: "git_diff HEAD~200..HEAD (first page)",
      tool: "git_diff",
      args: { base: "HEAD~200", target: "HEAD" },
      raw: ["diff", "--no-ext-diff", "--no-textconv", "HEAD~200", "HEAD"],
    },
    {
      label: "git_diff HEAD~200..HEAD stat_only",
      tool: "git_diff",
      args: { base: "HEAD~200", target: "HEAD", stat_only: true },
      raw: ["diff", "--numstat", "-z", "HEAD~200", "HEAD"],
    },
    {
      label: "git_show HEAD~10",
      tool: "git_show",
      args: { revision: "HEAD~10" },
      raw: ["show", "--no-ext-diff", "--no-textconv", "HEAD~10"],
    },
    {
      label: `git_show HEAD~100 path=${file}`,
      tool: "git_show",
      args: { revision: "HEAD~100", path: file },
      raw: ["show", `HEAD~100:${file}`],
    },
    {
      label: `git_blame ${file} (first 200 lines)`,
      tool: "git_blame",
      args: { path: file },
      raw: ["blame", "--porcelain", "-L1,+201", "--", file],
    },
  ];
}

let clockTicks = 0;

/** CPU seconds of `pid` itself plus its waited-for children (utime, stime, cutime, cstime). */
function cpuWithChildren(pid: number): number {
  if (clockTicks === 0) {
    const out = new Deno.Command("getconf", { args: ["CLK_TCK"], stdout: "piped" }).outputSync();
    clockTicks = Number(new TextDecoder().decode(out.stdout).trim()) || 100;
  }
  const text = readProc(pid, "stat");
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / clockTicks;
}

async function rawMs(root: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command("git", {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

async function toolMs(peer: Peer, tool: string, args: Record<string, unknown>): Promise<number> {
  const t0 = performance.now();
  const answer = await peer.request("tools/call", { name: tool, arguments: args }, {
    timeoutMs: 120_000,
  });
  const ms = performance.now() - t0;
  const result = answer.result as { isError?: boolean; content?: { text: string }[] } | undefined;
  if (result === undefined || result.isError) {
    throw new Error(`${tool} ${JSON.stringify(args)}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  return ms;
}

async function measure(root: string, list: Case[]): Promise<void> {
  // --no-index: no trigram index build competing for the CPU while git is measured.
  const peer = new Peer("ours", oursCommand(root, ["--no-index"]), { stderr: "inherit" });
  await peer.handshake();
  const tools = await peer.request("tools/list", {});
  const names = (tools.result as { tools: { name: string }[] }).tools.map((t) => t.name);
  if (!names.includes("git_status")) throw new Error(`no git tools for ${root}: ${names}`);
  const spawn: number[] = [];
  console.log(
    `\n### ${root} (${gitOut(root, "rev-list", "--count", "HEAD")} commits, ` +
      `${gitOut(root, "ls-files").split("\n").length} files)\n`,
  );
  console.log(
    "| case | raw git median ms | tool median ms | tool - raw (medians) ms | " +
      "paired difference median ms | target <= +10 ms | raw git CPU ms/call | " +
      "tool CPU ms/call (server + git) |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |");
  for (const c of list) {
    // Warm both (the first tool call also runs the config guard).
    await rawMs(root, c.raw);
    await toolMs(peer, c.tool, c.args);
    const raw: number[] = [];
    const ours: number[] = [];
    // CPU: this process's children (the raw git runs, plus the `cat` that reads /proc, measured
    // alone below and subtracted) against the server with its git children.
    let rawCpu = 0;
    let toolCpu = 0;
    let catCpu = 0;
    const self = Deno.pid;
    const timeRaw = async () => {
      const before = cpuWithChildren(self);
      raw.push(await rawMs(root, c.raw));
      rawCpu += cpuWithChildren(self) - before;
    };
    const timeTool = async () => {
      const before = cpuWithChildren(peer.pid);
      ours.push(await toolMs(peer, c.tool, c.args));
      toolCpu += cpuWithChildren(peer.pid) - before;
    };
    for (let i = 0; i < ROUNDS; i++) {
      const before = cpuWithChildren(self);
      catCpu += cpuWithChildren(self) - before;
    }
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        await timeRaw();
        await timeTool();
      } else {
        await timeTool();
        await timeRaw();
      }
      spawn.push(await rawMs(root, ["--version"]));
    }
    const r = median(raw);
    const t = median(ours);
    // Each round runs both back to back: the median of the per-round differences shrugs off
    // load that comes and goes during the run.
    const paired = median(ours.map((ms, i) => ms - raw[i]));
    const cpuRaw = ((rawCpu - catCpu) * 1000) / ROUNDS;
    const cpuTool = (toolCpu * 1000) / ROUNDS;
    console.log(
      `| ${c.label} | ${r.toFixed(1)} | ${t.toFixed(1)} | ${(t - r).toFixed(1)} | ` +
        `${paired.toFixed(1)} | ${paired <= 10 ? "met" : "MISSED"} | ${cpuRaw.toFixed(1)} | ` +
        `${cpuTool.toFixed(1)} |`,
    );
  }
  console.log(
    `\nbare \`git --version\` spawn median: ${median(spawn).toFixed(1)} ms; ` +
      `server peak RSS ${(peer.peakRssKiB() / 1024).toFixed(0)} MiB`,
  );
  await peer.close();
}

console.log(
  `# git tools bench ${
    new Date().toISOString()
  }: server ${serverLabel()}; ${ROUNDS} rounds per case; ` +
    `load average at start ${loadAverage()}; ${gitOut(REPO, "--version")}`,
);
await measure(REPO, cases(REPO));
if (STATUS_REPO !== null) {
  await measure(STATUS_REPO, [{
    label: "git_status (kernel-sized tree, clean)",
    tool: "git_status",
    args: {},
    raw: ["status", "--porcelain=v2", "-z", "--branch"],
  }]);
}
console.log(`\nload average at end ${loadAverage()}`);
