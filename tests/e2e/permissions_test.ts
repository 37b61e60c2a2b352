/**
 * The process holds only the permissions its flags use (docs/protocol.md, "Permissions"): proven
 * from inside the real server, started with the start task's flags, by a preloaded probe.
 */

import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { MAIN, serverFlags, testArgs } from "./harness.ts";

const PROBE = new URL("./permission_probe.ts", import.meta.url).pathname;

async function probe(
  flags: string[],
  options: { gitRepo?: boolean } = {},
): Promise<
  { write: string; run: string; ffi: string; net: string; wrote: boolean; stderr: string }
> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-perm-" });
  try {
    if (options.gitRepo) {
      const init = new Deno.Command("git", { args: ["init", "-q"], cwd: root }).outputSync();
      assert.ok(init.success);
    }
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...(await serverFlags()),
        "--preload",
        PROBE,
        MAIN,
        ...testArgs(["--root", root, ...flags]),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(INIT + "\n"));
    await writer.close();
    const out = await child.output();
    assert.equal(out.code, 0);
    const stderr = new TextDecoder().decode(out.stderr);
    const line = stderr.split("\n").find((l) => l.startsWith("probe: "));
    assert.ok(line !== undefined, `no probe report on stderr: ${stderr}`);
    const wrote = await Deno.stat(`${root}/probe-wrote-this.txt`).then(() => true, () => false);
    return { ...JSON.parse(line.slice("probe: ".length)), wrote, stderr };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("permissions: a read-only session cannot write a file even from inside the process", async () => {
  const report = await probe([]);
  assert.equal(report.write, "NotCapable");
  assert.equal(report.wrote, false);
});

Deno.test("permissions: a session in one process (--no-daemon) holds no network permission", async () => {
  for (const flags of [[], ["--write"]]) {
    assert.equal((await probe(flags, { gitRepo: true })).net, "NotCapable", JSON.stringify(flags));
  }
});

Deno.test("permissions: a session without git tools cannot spawn a program", async () => {
  const report = await probe(["--no-git"]);
  assert.equal(report.run, "NotCapable");
});

Deno.test("permissions: with --write the process keeps its write permission", async () => {
  const report = await probe(["--write"]);
  assert.equal(report.write, "done");
  assert.equal(report.wrote, true);
});

Deno.test("permissions: a root that is no git work tree cannot spawn a program either", async () => {
  const report = await probe([]);
  assert.equal(report.run, "NotCapable");
});

Deno.test("permissions: a git work tree keeps the permission to run git", async () => {
  const report = await probe([], { gitRepo: true });
  assert.equal(report.run, "done");
  const refused = await probe(["--no-git"], { gitRepo: true });
  assert.equal(refused.run, "NotCapable");
});

/** Debian's (and Ubuntu's) glibc is where the allocator looks first. */
async function debianGlibc(): Promise<boolean> {
  const arch = Deno.build.arch === "aarch64" ? "aarch64" : "x86_64";
  return await Deno.stat(`/lib/${arch}-linux-gnu/libc.so.6`).then(() => true, () => false);
}

Deno.test("permissions: no session keeps the native-code permission its allocator tuning used", async () => {
  for (const flags of [[], ["--write"]]) {
    const report = await probe([...flags, "--log-level", "debug"], { gitRepo: true });
    assert.equal(report.ffi, "NotCapable", `with ${JSON.stringify(flags)}`);
    if (Deno.build.os !== "linux") assert.match(report.stderr, /allocator: left as it is on /);
    else if (await debianGlibc()) {
      assert.match(report.stderr, /allocator: mmap threshold fixed at 1048576 bytes/);
    }
  }
});

/** Every file below `dir`, with its size and mtime (what a write would change). */
async function snapshot(dir: string, skip = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (p === skip) continue;
    const info = await Deno.lstat(p);
    if (info.isDirectory) out.push(...await snapshot(p, skip));
    else out.push(`${p} ${info.size} ${info.mtime?.getTime()}`);
  }
  return out.sort();
}

Deno.test("permissions: a read-only session writes its index cache and nothing else, and only its cache writer can", async () => {
  const top = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-perm-cache-" }));
  const root = `${top}/root`;
  const cache = `${top}/cache`;
  try {
    await Deno.mkdir(`${root}/src`, { recursive: true });
    for (let i = 0; i < 20; i++) await Deno.writeTextFile(`${root}/src/f${i}.c`, `int v${i};\n`);
    const before = await snapshot(top);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...(await serverFlags()),
        "--preload",
        PROBE,
        MAIN,
        "--root",
        root,
        "--no-daemon",
        "--cache-dir",
        cache,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(INIT + "\n"));
    await writer.write(
      new TextEncoder().encode('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'),
    );
    // The index of the root is stored by the writer while the session runs.
    const until = Date.now() + 30_000;
    let stored = false;
    while (!stored && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        for await (const e of Deno.readDir(cache)) {
          if (e.isDirectory) await Deno.lstat(`${cache}/${e.name}/manifest.json`);
          if (e.isDirectory) stored = true;
        }
      } catch {
        // not yet
      }
    }
    await writer.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    const line = stderr.split("\n").find((l) => l.startsWith("probe: "));
    assert.ok(line !== undefined, `no probe report on stderr: ${stderr}`);
    const report = JSON.parse(line.slice("probe: ".length));
    assert.ok(stored, "the index was never stored");
    assert.equal(report.write, "NotCapable");
    assert.equal(report.cacheWrite, "NotCapable");
    // Outside the cache folder nothing changed; inside it, only the stored index and its lock.
    assert.deepEqual(await snapshot(top, cache), before);
    const entries = (await snapshot(cache)).map((l) => l.slice(cache.length + 1).split(" ")[0]);
    assert.ok(
      entries.every((e) =>
        /^[0-9a-f]{40}(\.lock|\/(manifest\.json|base-[0-9a-z]+\.shard))$/.test(e)
      ),
      entries.join(", "),
    );
    for (const e of [cache, ...entries.map((x) => `${cache}/${x}`)]) {
      const mode = (await Deno.lstat(e)).mode! & 0o777;
      assert.equal(mode, (await Deno.lstat(e)).isDirectory ? 0o700 : 0o600, e);
    }
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

Deno.test("permissions: started with --allow-read and HOME alone, a session still searches (its workers start plainly)", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-perm-" });
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "needle\n");
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-env=HOME",
        "--no-prompt",
        MAIN,
        ...testArgs(["--root", root]),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    const call = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "grep", arguments: { pattern: "needle", output_mode: "count" } },
    };
    await writer.write(new TextEncoder().encode(`${INIT}\n${JSON.stringify(call)}\n`));
    await writer.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
    const answer = lines.find((m) => m.id === 2);
    assert.equal(answer?.result?.content?.[0]?.text, "a.txt:1", stderr);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
