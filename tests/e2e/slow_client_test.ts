/**
 * A client that reads slowly (issue 8, defect 2): answers are written one message at a time and
 * the server stops taking requests while its output waits, so memory stays bounded and no answer
 * is lost (docs/limits.md).
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { MAIN, serverFlags, testArgs } from "./harness.ts";

const MIB = 1024 * 1024;
const READS = 150;

/** Resident memory of a process, from `ps` (Deno needs --allow-all for /proc). */
async function rssMib(pid: number): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  return Number(new TextDecoder().decode(out.stdout).trim()) / 1024;
}

Deno.test("slow client: 150 reads of a 4 MiB file while nobody reads stdout keep memory bounded, then all are answered", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-slow-" });
  const line = "x".repeat(1023) + "\n";
  await Deno.writeTextFile(`${root}/big.txt`, line.repeat(4 * 1024));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await serverFlags()), MAIN, ...testArgs(["--root", root])],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  try {
    const writer = child.stdin.getWriter();
    const uri = new URL(`file://${root}/big.txt`).href;
    const requests = [INIT];
    for (let i = 0; i < READS; i++) {
      requests.push(JSON.stringify({
        jsonrpc: "2.0",
        id: 100 + i,
        method: "resources/read",
        params: { uri },
      }));
    }
    await writer.write(new TextEncoder().encode(requests.map((r) => r + "\n").join("")));
    // Nobody reads stdout for a while: the server must hold still, not grow.
    let stalled = 0;
    for (let k = 0; k < 16; k++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      stalled = Math.max(stalled, await rssMib(child.pid));
    }
    await writer.close();
    let lines = 0;
    let partial = "";
    const decoder = new TextDecoder();
    const ids = new Set<number>();
    for await (const chunk of child.stdout) {
      const parts = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = parts.pop()!;
      for (const text of parts) {
        lines++;
        const message = JSON.parse(text);
        if (message.id >= 100) {
          assert.equal(message.result.contents[0].text.length, 4 * MIB);
          ids.add(message.id);
        }
      }
    }
    const status = await child.status;
    assert.equal(status.code, 0, await stderr);
    assert.equal(lines, READS + 1);
    assert.equal(ids.size, READS);
    // Unbounded, the queued answers alone are 600 MiB (and crashed the process with
    // "Invalid string length"); bounded, at most 16 answers wait.
    assert.ok(stalled < 400, `RSS ${stalled.toFixed(0)} MiB while the client did not read`);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // exited
    }
    await child.status;
    await stderr.catch(() => {});
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("slow client: SIGTERM ends the process at once even while answers wait for a client that does not read", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-slow-" });
  await Deno.writeTextFile(`${root}/big.txt`, ("x".repeat(1023) + "\n").repeat(4 * 1024));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await serverFlags()), MAIN, ...testArgs(["--root", root])],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const writer = child.stdin.getWriter();
    const uri = new URL(`file://${root}/big.txt`).href;
    const requests = [INIT];
    for (let i = 0; i < 20; i++) {
      requests.push(
        JSON.stringify({ jsonrpc: "2.0", id: 100 + i, method: "resources/read", params: { uri } }),
      );
    }
    await writer.write(new TextEncoder().encode(requests.map((r) => r + "\n").join("")));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const sent = Date.now();
    child.kill("SIGTERM");
    const status = await child.status;
    assert.equal(status.code, 0);
    assert.ok(Date.now() - sent < 4000, `exit took ${Date.now() - sent} ms`);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // exited
    }
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("steady client: 300 reads of a 1 MiB file, 4 in flight, keep memory bounded (written answers are released)", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-steady-" });
  await Deno.writeTextFile(`${root}/big.txt`, ('\tint x = "a";\n').repeat(75_000));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await serverFlags()), MAIN, ...testArgs(["--root", root])],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const writer = child.stdin.getWriter();
    const encoder = new TextEncoder();
    await writer.write(encoder.encode(INIT + "\n"));
    const uri = new URL(`file://${root}/big.txt`).href;
    let answered = 0;
    const reading = (async () => {
      let partial = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        const parts = (partial + decoder.decode(chunk, { stream: true })).split("\n");
        partial = parts.pop()!;
        answered += parts.length;
      }
    })();
    let peak = 0;
    for (let id = 1; id <= 300; id++) {
      const request = { jsonrpc: "2.0", id: 100 + id, method: "resources/read", params: { uri } };
      await writer.write(encoder.encode(JSON.stringify(request) + "\n"));
      while (id - (answered - 1) > 4) await new Promise((resolve) => setTimeout(resolve, 1));
      if (id % 50 === 0) peak = Math.max(peak, await rssMib(child.pid));
    }
    await writer.close();
    await reading;
    assert.equal(answered, 301);
    // Each answer is 1.4 MiB of JSON: holding the written ones made this 600 MiB and growing.
    assert.ok(peak < 350, `RSS ${peak.toFixed(0)} MiB after a steady stream of large answers`);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // exited
    }
    await child.status;
    await Deno.remove(root, { recursive: true });
  }
});
