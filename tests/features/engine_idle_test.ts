/**
 * The type engines' idle end in the shared daemon: a session that comes while the daemon still
 * waits for one (--daemon-idle-s) finds the engines' programs built, so an engine there stays
 * at least that long after its last question; elsewhere it keeps its own default.
 */

import assert from "node:assert/strict";
import { defaultConfig } from "../../lib/config.ts";
import { loadShared } from "../../lib/features/load.ts";
import { DEFAULT_IDLE_MS, WorkerEngine } from "../../lib/semantic/worker_engine.ts";

function idleTimes(overrides: Partial<ReturnType<typeof defaultConfig>>): number[] {
  const config = { ...defaultConfig(), noIndex: true, ...overrides };
  const shared = loadShared(null, config, {
    write: false,
    git: false,
    gitTarget: null,
    selected: null,
  });
  try {
    return shared.services.semantic.engines.map((engine) => {
      assert.ok(engine instanceof WorkerEngine);
      return engine.idleMs;
    });
  } finally {
    shared.close();
  }
}

Deno.test("engines: in the daemon they stay idle as long as the daemon waits for a next session", () => {
  const times = idleTimes({ serveDaemon: true, daemonIdleS: 900 });
  assert.ok(times.length >= 2);
  assert.deepEqual(new Set(times), new Set([900_000]));
});

Deno.test("engines: a daemon that waits less than their own idle time, or one process, keeps their default", () => {
  assert.deepEqual(
    new Set(idleTimes({ serveDaemon: true, daemonIdleS: 0 })),
    new Set([DEFAULT_IDLE_MS]),
  );
  assert.deepEqual(
    new Set(idleTimes({ serveDaemon: false, daemonIdleS: 900 })),
    new Set([DEFAULT_IDLE_MS]),
  );
});
