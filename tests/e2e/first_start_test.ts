/**
 * A first start never outlasts a host's start-up timeout (docs/protocol.md, "Start-up"): after
 * the README's one-time `deno task setup`, a start from that Deno cache answers tools/list at
 * once and writes nothing to stderr. Without the set-up, the first start downloaded its npm
 * packages while the host waited (15 s here; Codex gave up after 10 s).
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { spawnEnv } from "./harness.ts";

const ROOT = new URL("../../", import.meta.url);
const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';

/**
 * The module files the server loads by URL at run time: main's features and every worker (started
 * directly, or named by an engine's `worker:` for lib/semantic/worker_engine.ts to start).
 */
function runtimeEntries(): string[] {
  const found = ["main.ts", "lib/features/load.ts"];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(new URL(dir, ROOT))) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(rel);
      else if (rel.endsWith(".ts")) {
        const text = Deno.readTextFileSync(new URL(rel, ROOT));
        for (
          const m of text.matchAll(
            /(?:new Worker\(|startWorker\(|worker: )\s*new URL\("\.\/([\w/]+\.ts)", import\.meta\.url\)/g,
          )
        ) {
          found.push(`${rel.slice(0, rel.lastIndexOf("/"))}/${m[1]}`);
        }
      }
    }
  };
  walk("lib");
  return found;
}

function setupCommand(): string {
  const deno = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT)));
  return deno.tasks.setup.command;
}

Deno.test("first start: the set-up task caches main, the features and every worker the server starts", () => {
  const words = setupCommand().split(" ");
  assert.deepEqual(words.slice(0, 3), ["deno", "cache", "--quiet"]);
  assert.deepEqual(words.slice(3).sort(), [...new Set(runtimeEntries())].sort());
});

Deno.test({
  name:
    "first start: from an empty Deno cache after deno task setup, tools/list within 10 s, stderr quiet",
  // Needs the npm registry, as the set-up does; about 20 s here.
  sanitizeResources: false,
  async fn() {
    const denoDir = await Deno.makeTempDir({ prefix: "shipcode-deno-dir-" });
    const root = await Deno.makeTempDir({ prefix: "shipcode-first-" });
    const env = spawnEnv({ DENO_DIR: denoDir });
    try {
      const setup = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "setup"],
        cwd: ROOT,
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const setupErr = new TextDecoder().decode(setup.stderr);
      assert.equal(setup.code, 0, setupErr);
      assert.equal(setupErr, "", "the set-up step is quiet");

      const started = performance.now();
      const child = new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "start", "--root", root, "--no-cache", "--no-daemon"],
        cwd: ROOT,
        env,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const stderr = new Response(child.stderr).text();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(`${INIT}\n${LIST}\n`));
      let out = "";
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      while (!out.includes('{"jsonrpc":"2.0","id":2,')) {
        const { value, done } = await reader.read();
        if (done) break;
        out += value;
      }
      const ms = performance.now() - started;
      await writer.close();
      await reader.cancel();
      await child.status;
      assert.match(out, /\{"jsonrpc":"2\.0","id":2,"result":\{"tools":\[/);
      assert.ok(ms < 10_000, `tools/list answered ${ms.toFixed(0)} ms after spawn`);
      assert.equal(await stderr, "");
    } finally {
      await Deno.remove(denoDir, { recursive: true });
      await Deno.remove(root, { recursive: true });
    }
  },
});
