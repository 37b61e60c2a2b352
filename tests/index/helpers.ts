/** A workspace with a trigram index for tests, and a grep that runs with and without it. */
import { SearchIndex } from "../../lib/index/service.ts";
import { encodeShard, type ShardInput } from "../../lib/index/store/shard_format.ts";
import type { IndexStatus } from "../../lib/index/protocol.ts";
import { grepTool } from "../../lib/tools/grep.ts";
import type { CallContext } from "../../lib/tools/tool.ts";
import { Session } from "../../lib/tools/session.ts";
import { call, type Harness, harness, text } from "../tools/helpers.ts";

export interface IndexHarness extends Harness {
  index: SearchIndex;
  /** The same context without the index (full scans). */
  scanCtx: CallContext;
}

export async function indexHarness(
  files: Record<string, string | Uint8Array>,
  options: { maxBytes?: number; eagerMaxFiles?: number } = {},
): Promise<IndexHarness> {
  const h = await harness(files);
  const index = new SearchIndex({
    ws: h.ws.options,
    maxBytes: options.maxBytes ?? 256 * 1024 * 1024,
    eagerMaxFiles: options.eagerMaxFiles ?? 30_000,
    watch: true,
  });
  const scanCtx = h.ctx;
  h.ctx = { ...h.ctx, session: new Session({ index }) };
  index.start();
  return { ...h, index, scanCtx };
}

/** Waits (up to 60 s) until the index reports `phase`. */
export async function waitFor(
  index: SearchIndex,
  phase: IndexStatus["phase"] = "ready",
): Promise<IndexStatus> {
  const until = Date.now() + 60_000;
  for (;;) {
    const status = await index.currentStatus();
    if (status.phase === phase) return status;
    if (Date.now() > until) throw new Error(`index still ${status.phase}, wanted ${phase}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The grep's text through the index, and whether the index chose the files (else: why not). */
export async function grepIndexed(
  h: IndexHarness,
  args: Record<string, unknown>,
): Promise<{ text: string; indexed: boolean; why: string }> {
  const result = await call(grepTool, args, h);
  const last = h.index.lastAnswer;
  return { text: text(result), indexed: last?.candidates != null, why: last?.why ?? "" };
}

/** The grep's text by full scan (no index). */
export async function grepScanned(h: IndexHarness, args: Record<string, unknown>): Promise<string> {
  const result = await call(grepTool, args, { ...h, ctx: h.scanCtx });
  return text(result);
}

export async function grepText(h: IndexHarness, args: Record<string, unknown>): Promise<string> {
  return text(await call(grepTool, args, h));
}

export async function cleanup(h: IndexHarness): Promise<void> {
  h.ctx.session.close();
  h.scanCtx.session.close();
  await Deno.remove(h.root, { recursive: true });
}

/** The whole shard file the encoder writes for `input`, as one buffer. */
export function shardBytes(input: ShardInput): Uint8Array {
  const chunks: Uint8Array[] = [];
  encodeShard(input, (b) => chunks.push(b.slice()));
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let n = 0;
  for (const c of chunks) {
    all.set(c, n);
    n += c.length;
  }
  return all;
}
