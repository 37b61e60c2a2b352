/**
 * The index worker's thread: the message dispatch. The state and the steps are IndexWorker's
 * (index_worker.ts); lib/index/service.ts on the main thread starts this file and speaks
 * lib/index/protocol.ts with it.
 */
/// <reference lib="deno.worker" />
import type { FromIndex, ToIndex } from "../protocol.ts";
import { IndexWorker } from "./index_worker.ts";

function post(message: FromIndex): void {
  self.postMessage(message);
}

const worker = new IndexWorker(post);

self.onmessage = async (event: MessageEvent<ToIndex>) => {
  const m = event.data;
  try {
    switch (m.t) {
      case "open":
        await worker.open(m.settings, m.cache, m.watch, m.busy);
        break;
      case "unwatched":
        worker.unwatched(m.why);
        break;
      case "build":
        await worker.build();
        break;
      case "query": {
        const { answer, confirm } = await worker.query(m.query, m.early === true);
        post({ t: "answer", id: m.id, ...answer, checking: confirm !== undefined });
        if (confirm === undefined) break;
        let fresh = false;
        try {
          fresh = await confirm();
        } finally {
          post({ t: "checked", id: m.id, fresh });
        }
        break;
      }
      case "touch":
        worker.touch(m.paths);
        break;
      case "overflow":
        worker.overflow();
        break;
      case "deafen":
        worker.deafen();
        break;
      case "status":
        post({ t: "status", id: m.id, status: worker.status() });
        break;
      case "persist":
        post({ t: "persisted", id: m.id, error: await worker.persist() });
        break;
    }
  } catch (error) {
    if (m.t === "query") post({ t: "answer", id: m.id, candidates: null, why: String(error) });
    worker.fail(error);
  }
};
