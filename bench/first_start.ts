// deno-lint-ignore-file no-console
/**
 * First start from an empty Deno cache (docs/BENCHMARKS.md, "First start"): a fresh DENO_DIR,
 * optionally the README's one-time set-up step (`deno task setup`), then the README's run command
 * (`deno task start`); measures spawn to the `tools/list` answer and counts stderr lines. Hosts
 * give a server about 10 s to answer (Codex's start-up timeout was 10 s).
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/first_start.ts [--no-setup]
 *
 * Needs the npm registry (the set-up step, or the first start without it, downloads packages).
 */
const ROOT = new URL("../", import.meta.url).pathname;
const setup = !Deno.args.includes("--no-setup");
const INIT =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}';
const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';

/** One process, no shared daemon (a checkout that knows the flag): the bench times one start. */
function noDaemon(): string[] {
  const args = Deno.readTextFileSync(`${ROOT}lib/cli/args.ts`);
  return args.includes('"--no-daemon"') ? ["--no-daemon"] : [];
}

/** Runs a deno subcommand with `env`; returns its time and its stderr lines. */
async function deno(args: string[], env: Record<string, string>) {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr).split("\n").filter((l) => l !== "");
  return { ms: performance.now() - started, code: out.code, stderr };
}

/** Spawns `deno task start`, sends initialize then tools/list; times the two answers. */
async function firstStart(env: Record<string, string>, root: string) {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "start", "--root", root, "--no-cache", ...noDaemon()],
    cwd: ROOT,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`${INIT}\n${LIST}\n`));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let initMs = NaN;
  let listMs = NaN;
  let listChars = 0;
  while (Number.isNaN(listMs)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('{"jsonrpc":"2.0","id":1,')) initMs = performance.now() - started;
      if (line.startsWith('{"jsonrpc":"2.0","id":2,')) {
        listMs = performance.now() - started;
        listChars = line.length;
      }
    }
  }
  await writer.close();
  reader.releaseLock();
  await child.status;
  const lines = (await stderr).split("\n").filter((l) => l !== "");
  return { initMs, listMs, listChars, stderr: lines };
}

const given = Deno.args.indexOf("--deno-dir");
const denoDir = given >= 0
  ? Deno.args[given + 1]
  : await Deno.makeTempDir({ prefix: "shipcode-deno-dir-" });
const root = await Deno.makeTempDir({ prefix: "shipcode-first-" });
await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n");
const env = { ...Deno.env.toObject(), DENO_DIR: denoDir, NO_COLOR: "1" };
try {
  if (setup) {
    const step = await deno(["task", "-q", "setup"], env);
    console.log(
      `set-up (deno task setup): ${(step.ms / 1000).toFixed(1)} s, exit ${step.code}, ` +
        `${step.stderr.length} stderr lines`,
    );
    for (const line of step.stderr.slice(0, 5)) console.log(`  ${line}`);
  }
  const first = await firstStart(env, root);
  console.log(
    `first start${setup ? " after the set-up" : " (no set-up)"}: initialize ${
      first.initMs.toFixed(0)
    } ms, tools/list ${first.listMs.toFixed(0)} ms (${first.listChars} chars), ` +
      `${first.stderr.length} stderr lines`,
  );
  for (const line of first.stderr.slice(0, 5)) console.log(`  ${line}`);
  const second = await firstStart(env, root);
  console.log(
    `second start: initialize ${second.initMs.toFixed(0)} ms, tools/list ${
      second.listMs.toFixed(0)
    } ms, ${second.stderr.length} stderr lines`,
  );
} finally {
  if (given < 0) await Deno.remove(denoDir, { recursive: true });
  await Deno.remove(root, { recursive: true });
}
