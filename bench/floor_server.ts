// deno-lint-ignore-file no-console
/**
 * The floor: the least work a Deno JSON-RPC stdio loop can do per message. It frames lines on bytes,
 * decodes and JSON.parses each one (any real server must), and answers with fixed bytes:
 * `initialize` -> the seed handshake, `ping` -> `{}`, `tools/list` -> the bytes of a captured
 * tools/list result (--tools-list FILE), `resources/read` -> one text content holding the file
 * given with --text (encoded once at start), anything else with an id -> -32601.
 * Writes are coalesced: the answers to one read chunk leave in one write (large answers on their own).
 *
 *   deno run --allow-read bench/floor_server.ts --tools-list FILE --text FILE --uri URI
 */
import { concat, LineSplitter } from "./byte_lines.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const toolsListPath = flag("--tools-list");
const textPath = flag("--text");
const uri = flag("--uri") ?? "file:///floor.txt";

// The fixed answers that need a file are built on first use (they must not slow the cold start).
let tailTools: Uint8Array | undefined;
let tailRead: Uint8Array | undefined;

function toolsTail(): Uint8Array {
  const result = toolsListPath ? Deno.readTextFileSync(toolsListPath).trim() : '{"tools":[]}';
  return tailTools ??= encoder.encode(`,"result":${result}}\n`);
}

function readTail(): Uint8Array {
  const result = textPath
    ? JSON.stringify({
      contents: [{ uri, mimeType: "text/plain", text: Deno.readTextFileSync(textPath) }],
    })
    : '{"contents":[]}';
  return tailRead ??= encoder.encode(`,"result":${result}}\n`);
}

const HEAD = encoder.encode('{"jsonrpc":"2.0","id":');
const TAIL_INIT = encoder.encode(
  ',"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},' +
    '"serverInfo":{"name":"shipcode-mcp","version":"1.0.0"}}}\n',
);
const TAIL_PING = encoder.encode(',"result":{}}\n');
const TAIL_NOT_FOUND = encoder.encode(',"error":{"code":-32601,"message":"Method not found"}}\n');
const PARSE_ERROR = encoder.encode(
  '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n',
);

/** Parts waiting for the next write; small ones are merged, large ones written as they are. */
let parts: Uint8Array[] = [];
let partsBytes = 0;

function push(...ps: Uint8Array[]): void {
  for (const p of ps) {
    parts.push(p);
    partsBytes += p.length;
  }
}

function answer(line: Uint8Array): void {
  let msg: { id?: unknown; method?: unknown };
  try {
    msg = JSON.parse(decoder.decode(line));
  } catch {
    push(PARSE_ERROR);
    return;
  }
  if (msg === null || typeof msg !== "object" || msg.id === undefined) return; // notification
  let tail: Uint8Array;
  switch (msg.method) {
    case "ping":
      tail = TAIL_PING;
      break;
    case "initialize":
      tail = TAIL_INIT;
      break;
    case "tools/list":
      tail = tailTools ?? toolsTail();
      break;
    case "resources/read":
      tail = tailRead ?? readTail();
      break;
    default:
      tail = TAIL_NOT_FOUND;
  }
  push(HEAD, encoder.encode(JSON.stringify(msg.id)), tail);
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}

const BIG = 64 * 1024;

/**
 * Writing runs beside reading (as a real server's output does): the reader hands parts over and
 * goes on reading; it waits only when more than WAIT_BYTES are queued (back-pressure).
 */
const WAIT_BYTES = 8 * 1024 * 1024;
let writing: Promise<void> | null = null;

function kick(): void {
  writing ??= (async () => {
    while (parts.length > 0) await flush();
  })().catch(() => Deno.exit(0)) // the client went away (EPIPE)
    .finally(() => (writing = null));
}

async function flush(): Promise<void> {
  const out = parts;
  parts = [];
  partsBytes = 0;
  let small: Uint8Array[] = [];
  let smallLen = 0;
  const flushSmall = async () => {
    if (smallLen === 0) return;
    const buf = concat(small, smallLen);
    small = [];
    smallLen = 0;
    await writeAll(buf);
  };
  for (const p of out) {
    if (p.length >= BIG) {
      await flushSmall();
      await writeAll(p);
    } else {
      small.push(p);
      smallLen += p.length;
    }
  }
  await flushSmall();
}

async function main(): Promise<void> {
  const buf = new Uint8Array(1 << 20);
  // The read buffer is reused: the start of a line is copied out of it.
  const lines = new LineSplitter({ copy: true });
  try {
    while (true) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      lines.push(buf.subarray(0, n), answer);
      if (parts.length > 0) {
        const queued = partsBytes;
        kick();
        if (queued > WAIT_BYTES && writing) await writing;
      }
    }
    const last = lines.rest();
    if (last !== null) answer(last);
    kick();
    while (writing) await writing;
  } catch (e) {
    if (!(e instanceof Deno.errors.BrokenPipe)) console.error(e);
  }
}

await main();
