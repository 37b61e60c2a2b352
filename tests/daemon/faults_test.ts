/**
 * The shared daemon's faults and bounds (docs/architecture.md, "The shared daemon"): a killed
 * daemon answers its calls in flight with -32000 and the next call starts a new one; a killed
 * relay takes only its own session; the idle end; unfit socket folders are refused; a probe and
 * --no-daemon start nothing. Real processes, each world with its own socket folder.
 */

import assert from "node:assert/strict";
import { INIT, INIT_ANSWER } from "../helpers/memory_session.ts";
import { MAIN, serverFlags, ServerProcess, spawnEnv } from "../e2e/harness.ts";
import { call, content, DaemonWorld } from "./helpers.ts";

const FILES = { "a.txt": "needle here\n", "b.txt": "nothing\n" };

async function entries(folder: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(folder))).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

Deno.test("daemon: kill -9 of the daemon answers the call in flight -32000, and the next call works on a new daemon", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const a = await world.session();
    const b = await world.session();
    content(
      await a.request(2, "tools/call", { name: "grep", arguments: { pattern: "needle" } })
        .then(JSON.stringify),
    );
    const [first] = await world.waitForDaemons(1);
    // Frozen, the daemon cannot answer: the call is surely in flight when it dies.
    Deno.kill(first, "SIGSTOP");
    await a.send(
      call(3, "grep", { pattern: "needle" }),
      '{"jsonrpc":"2.0","id":"p","method":"ping"}',
    );
    await b.send(
      call(3, "glob", { pattern: "*.txt" }),
      '{"jsonrpc":"2.0","id":"p","method":"ping"}',
    );
    // A relay answers ping itself, after it has passed the call before it to the daemon.
    for (const s of [a, b]) await s.take((l) => JSON.parse(l).id === "p");
    Deno.kill(first, "SIGKILL");
    for (const s of [a, b]) {
      const lost = JSON.parse(await s.take((l) => JSON.parse(l).id === 3));
      assert.deepEqual(lost.error, {
        code: -32000,
        message: "The server restarted; repeat the call.",
      });
    }
    // The next calls start a new daemon: a loaded machine may take seconds to start a process.
    await a.send(call(4, "grep", { pattern: "needle" }));
    const again = JSON.parse(await a.take((l) => JSON.parse(l).id === 4, 60_000));
    assert.deepEqual(content(JSON.stringify(again)).files, ["a.txt"]);
    await b.send(call(4, "glob", { pattern: "*.txt" }));
    const other = JSON.parse(await b.take((l) => JSON.parse(l).id === 4, 60_000));
    assert.deepEqual((content(JSON.stringify(other)).files as string[]).sort(), ["a.txt", "b.txt"]);
    const [second] = await world.waitForDaemons(1);
    assert.notEqual(second, first);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: a socket that hangs up before the welcome gives the call an error, and the relay lives on", async () => {
  const world = await DaemonWorld.create(FILES);
  let squatter: Deno.ChildProcess | null = null;
  try {
    const a = await world.session();
    const [daemon] = await world.waitForDaemons(1);
    const [socket] = (await entries(world.folder)).filter((name) => name.endsWith(".sock"));
    Deno.kill(daemon, "SIGKILL");
    await world.waitForDaemons(0);
    // In the daemon's place, a process that accepts and hangs up at once, before any welcome.
    squatter = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-net",
        "--allow-read",
        "--allow-write",
        new URL("./probes/hang_up_listener.ts", import.meta.url).pathname,
        `${world.folder}/${socket}`,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = squatter.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value?.trim(), "ready");
    reader.releaseLock();
    // Every daemon it starts finds the socket answered and leaves: the call ends in an error.
    await a.send(call(2, "grep", { pattern: "needle" }));
    const failed = JSON.parse(await a.take((l) => JSON.parse(l).id === 2, 60_000));
    assert.equal(failed.error?.code, -32603, JSON.stringify(failed));
    assert.match(failed.error.message, /could not be started again/);
    // The relay is alive, and once the socket is free the next call works on a new daemon.
    squatter.kill("SIGKILL");
    await squatter.status;
    squatter = null;
    assert.equal(
      JSON.parse(await a.request(3, "ping").then(JSON.stringify)).result !== undefined,
      true,
    );
    await a.send(call(4, "grep", { pattern: "needle" }));
    const again = JSON.parse(await a.take((l) => JSON.parse(l).id === 4, 60_000));
    assert.deepEqual(content(JSON.stringify(again)).files, ["a.txt"]);
  } finally {
    if (squatter !== null) {
      squatter.kill("SIGKILL");
      await squatter.status;
    }
    await world.dispose();
  }
});

Deno.test("daemon: kill -9 of a relay leaves the other sessions and the daemon untouched", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const a = await world.session();
    const b = await world.session();
    const [daemon] = await world.waitForDaemons(1);
    await a.send(call(2, "grep", { pattern: "needle" }));
    a.child.kill("SIGKILL");
    await a.child.status;
    const answer = await b.request(2, "tools/call", {
      name: "grep",
      arguments: { pattern: "needle" },
    });
    assert.deepEqual(content(JSON.stringify(answer)).files, ["a.txt"]);
    assert.deepEqual(await world.daemons(), [daemon]);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: --daemon-idle-s 0 ends the daemon with its last session; the default keeps it for the next", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const kept = await world.session();
    content(
      await kept.request(2, "tools/call", { name: "grep", arguments: { pattern: "x" } })
        .then(JSON.stringify),
    );
    const [daemon] = await world.waitForDaemons(1);
    assert.equal((await kept.close()).code, 0);
    const next = await world.session();
    content(
      await next.request(2, "tools/call", { name: "grep", arguments: { pattern: "x" } })
        .then(JSON.stringify),
    );
    assert.deepEqual(await world.daemons(), [daemon]);
    await next.close();
    Deno.kill(daemon, "SIGKILL");
    await world.waitForDaemons(0);

    const once = await world.session(["--daemon-idle-s", "0"]);
    content(
      await once.request(2, "tools/call", { name: "grep", arguments: { pattern: "x" } })
        .then(JSON.stringify),
    );
    await world.waitForDaemons(1);
    assert.equal((await once.close()).code, 0);
    await world.waitForDaemons(0);
  } finally {
    await world.dispose();
  }
});

for (const unfit of ["symlink", "mode 0777"] as const) {
  Deno.test(`daemon: a socket folder that is a ${unfit} is refused: the session runs in its own process`, async () => {
    const world = await DaemonWorld.create(FILES);
    try {
      if (unfit === "symlink") {
        await Deno.mkdir(`${world.top}/elsewhere`, { mode: 0o700 });
        await Deno.symlink(`${world.top}/elsewhere`, world.folder);
      } else {
        await Deno.mkdir(world.folder);
        await Deno.chmod(world.folder, 0o777);
      }
      const s = await world.session();
      const answer = await s.request(2, "tools/call", {
        name: "grep",
        arguments: { pattern: "needle" },
      });
      assert.deepEqual(content(JSON.stringify(answer)).files, ["a.txt"]);
      assert.deepEqual(await world.daemons(), []);
      const done = await s.close();
      assert.match(done.stderr, unfit === "symlink" ? /is a symlink/ : /open to other users/);
      assert.match(done.stderr, /runs in its own process/);
      assert.deepEqual(await entries(`${world.top}/elsewhere`), []);
      if (unfit !== "symlink") assert.deepEqual(await entries(world.folder), []);
    } finally {
      await world.dispose();
    }
  });
}

Deno.test("daemon: a probe that sends only server/discover starts nothing and writes nothing", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const probe = await world.spawn();
    await probe.send('{"jsonrpc":"2.0","id":0,"method":"server/discover"}');
    const [line] = await probe.read(1);
    assert.equal(JSON.parse(line).error.code, -32601);
    assert.equal((await probe.close()).code, 0);
    assert.deepEqual(await entries(world.runtime), []);
    assert.deepEqual(await world.daemons(), []);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: --no-daemon serves in one process and makes no socket", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const server = await ServerProcess.spawn(["--no-daemon", "--root", world.root], {
      env: world.env(),
    });
    await server.send(INIT);
    assert.equal((await server.read(1))[0], INIT_ANSWER);
    await server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const answer = await server.request(2, "tools/call", {
      name: "grep",
      arguments: { pattern: "needle" },
    });
    assert.deepEqual(content(JSON.stringify(answer)).files, ["a.txt"]);
    assert.equal((await server.close()).code, 0);
    assert.deepEqual(await entries(world.runtime), []);
    assert.deepEqual(await world.daemons(), []);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: without --daemon or --no-daemon a session on Linux and macOS goes through the daemon", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    // Spawned by hand: the harness adds --no-daemon to every spawn that names neither flag.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...(await serverFlags()), MAIN, "--root", world.root, "--no-cache"],
      env: spawnEnv(world.env()),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const server = new ServerProcess(child, false);
    try {
      await server.send(INIT);
      assert.equal((await server.read(1))[0], INIT_ANSWER);
      await server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      const answer = await server.request(2, "tools/call", {
        name: "grep",
        arguments: { pattern: "needle" },
      });
      assert.deepEqual(content(JSON.stringify(answer)).files, ["a.txt"]);
      assert.equal((await world.daemons()).length, Deno.build.os === "windows" ? 0 : 1);
    } finally {
      await server.kill();
    }
  } finally {
    await world.dispose();
  }
});
