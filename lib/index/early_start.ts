/**
 * The session's trigram index, and its early start: with a stored index (a cache writer is
 * running) main.ts starts the index worker as soon as the initialize answer is out, while the
 * features are still loading, so that the shards load and the stat pass runs meanwhile: the
 * first grep of a session waits for that pass. Without a stored index (the first session on the
 * root) the worker starts later (INDEX_START_DELAY_MS), its first grep being a full scan anyway.
 * The features then take this index over.
 */
import { type Config, MIB } from "../config.ts";
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { CacheWriterHandle } from "./store/cache_owner.ts";
import { type IndexSettings, SearchIndex } from "./service.ts";

/**
 * Without a stored index, the index starts this long after the session's start (or when its
 * first grep is done, if that is sooner), once the server's own start is done.
 */
export const INDEX_START_DELAY_MS = 500;

/** Trees with more files build their trigram index after the first grep, not at start. */
export const EAGER_MAX_FILES = 30_000;

/** The index settings of a session on the workspace opened with `ws`. */
export function indexSettings(
  ws: WorkspaceOptions,
  config: Pick<Config, "indexMaxMib" | "logLevel">,
): IndexSettings {
  return {
    ws,
    maxBytes: config.indexMaxMib * MIB,
    eagerMaxFiles: EAGER_MAX_FILES,
    watch: true,
    logLevel: config.logLevel,
  };
}

/**
 * Starts the index of `root` on the stored index in `cache` (null when there is no root to
 * serve or no index): the options are those Workspace.openSync gives, so that the features can
 * check that this index is the one of their workspace (`sameWorkspace`).
 */
export function startIndexEarly(
  root: string,
  config: Pick<Config, "indexMaxMib" | "logLevel" | "noIgnore" | "allowSecrets" | "noIndex">,
  cache: CacheWriterHandle,
): SearchIndex | null {
  if (config.noIndex) return null;
  let real: string;
  try {
    real = Deno.realPathSync(root);
  } catch {
    return null; // the features say why
  }
  const ws: WorkspaceOptions = {
    root: real,
    noIgnore: config.noIgnore,
    allowSecrets: config.allowSecrets,
    ...(real === root ? {} : { alias: root }),
  };
  const index = new SearchIndex(indexSettings(ws, config), cache);
  index.start(INDEX_START_DELAY_MS);
  return index;
}

/** True when `index` was started for the workspace options `ws`. */
export function sameWorkspace(index: SearchIndex, ws: WorkspaceOptions): boolean {
  const mine = index.settings.ws;
  return mine.root === ws.root && mine.noIgnore === ws.noIgnore &&
    mine.allowSecrets === ws.allowSecrets && (mine.alias ?? mine.root) === (ws.alias ?? ws.root);
}
