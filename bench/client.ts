/**
 * A small JSON-RPC-over-stdio client for the benchmarks: spawns a server, writes lines (coalescing
 * writes that are queued in the same tick), matches answers by id, and reads the server's peak RSS
 * and CPU time from /proc. Answers are matched without parsing the whole line when the id can be
 * read at the start (`{"jsonrpc":"2.0","id":N,`) or the end (`,"id":N}`) of it, so large answers
 * cost every server the same small client work.
 */
import { concat, LineSplitter } from "./byte_lines.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type Id = number | string;

/** One answer line (without its LF) and its id. */
export interface Answer {
  id: Id | null;
  line: Uint8Array;
}

export interface PeerOptions {
  cwd?: string;
  /** Where the server's stderr goes (default: discarded; "piped": to `onStderrLine`). */
  stderr?: "inherit" | "null" | "piped";
  onStderrLine?: (line: string) => void;
}

const HEAD = encoder.encode('{"jsonrpc":"2.0","id":');
const TAIL_ID = /"id":(-?\d+|"(?:[^"\\]|\\.)*")\}$/;
const BIG = 64 * 1024;

function startsWith(line: Uint8Array, prefix: Uint8Array): boolean {
  if (line.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[i] !== prefix[i]) return false;
  return true;
}

/** The id of an answer line, read from its start or end when possible, else by parsing it. */
export function lineId(line: Uint8Array): Id | null {
  if (startsWith(line, HEAD)) {
    let i = HEAD.length;
    if (line[i] !== 0x22) {
      let n = 0;
      let neg = false;
      if (line[i] === 0x2d) {
        neg = true;
        i++;
      }
      const first = i;
      while (i < line.length && line[i] >= 0x30 && line[i] <= 0x39) n = n * 10 + line[i++] - 0x30;
      if (i > first && (line[i] === 0x2c || line[i] === 0x7d)) return neg ? -n : n;
    }
  }
  const tail = decoder.decode(line.subarray(Math.max(0, line.length - 96)));
  const m = TAIL_ID.exec(tail);
  if (m) return JSON.parse(m[1]);
  try {
    const msg = JSON.parse(decoder.decode(line));
    return msg && typeof msg === "object" && "id" in msg ? msg.id : null;
  } catch {
    return null;
  }
}

export function parseLine(line: Uint8Array): Record<string, unknown> {
  return JSON.parse(decoder.decode(line));
}

/** A spawned server and the client end of its stdio. */
export class Peer {
  readonly pid: number;
  readonly name: string;
  /** Lines without a known waiter (notifications, stray answers), kept when `keepOthers`. */
  readonly others: Uint8Array[] = [];
  keepOthers = false;
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #waiters = new Map<Id, (a: Answer) => void>();
  #queue: Uint8Array[] = [];
  #flushing = false;
  #flushDone: Promise<void> = Promise.resolve();
  #nextId = 1;
  #closed = false;
  readonly ended: Promise<void>;

  constructor(name: string, cmd: string[], options: PeerOptions = {}) {
    this.name = name;
    this.#child = new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      cwd: options.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: options.stderr ?? "null",
    }).spawn();
    this.pid = this.#child.pid;
    if (options.stderr === "piped") {
      const onLine = options.onStderrLine ?? (() => {});
      const stderr = this.#child.stderr;
      (async () => {
        let partial = "";
        for await (const chunk of stderr.pipeThrough(new TextDecoderStream())) {
          const parts = (partial + chunk).split("\n");
          partial = parts.pop()!;
          for (const line of parts) onLine(line);
        }
      })().catch(() => {});
    }
    this.#writer = this.#child.stdin.getWriter();
    this.ended = this.#readLoop();
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** Calls `cb` once with the answer to `id`. */
  expect(id: Id, cb: (a: Answer) => void): void {
    this.#waiters.set(id, cb);
  }

  /** Queues bytes; everything queued before the flush runs leaves in one write (big parts alone). */
  write(...parts: Uint8Array[]): void {
    for (const p of parts) this.#queue.push(p);
    if (!this.#flushing) {
      this.#flushing = true;
      this.#flushDone = Promise.resolve().then(() => this.#flush());
    }
  }

  async #flush(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        let small: Uint8Array[] = [];
        let smallLen = 0;
        const out = async () => {
          if (smallLen === 0) return;
          const buf = small.length === 1 ? small[0] : concat(small, smallLen);
          small = [];
          smallLen = 0;
          await this.#writer.write(buf);
        };
        for (const p of batch) {
          if (p.length >= BIG) {
            await out();
            await this.#writer.write(p);
          } else {
            small.push(p);
            smallLen += p.length;
          }
        }
        await out();
      }
    } catch {
      // The server went away; waiters fail on their timeouts or when the read loop ends.
      this.#queue = [];
    } finally {
      this.#flushing = false;
    }
  }

  async #readLoop(): Promise<void> {
    const reader = this.#child.stdout.getReader();
    // Each read gives a fresh chunk: the start of a line is held without a copy.
    const lines = new LineSplitter({ copy: false });
    const dispatch = (line: Uint8Array) => this.#dispatch(line);
    while (true) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      lines.push(chunk, dispatch);
    }
    this.#closed = true;
    const err: Answer = { id: null, line: new Uint8Array() };
    for (const cb of this.#waiters.values()) cb(err);
    this.#waiters.clear();
  }

  #dispatch(line: Uint8Array): void {
    const id = lineId(line);
    const cb = id === null ? undefined : this.#waiters.get(id);
    if (cb && id !== null) {
      this.#waiters.delete(id);
      cb({ id, line });
    } else if (this.keepOthers) {
      this.others.push(line.slice());
    }
  }

  /** Sends one request and resolves with the parsed answer (rejects on timeout or server exit). */
  request(
    method: string,
    params?: unknown,
    options: { timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    return this.requestLine(method, params, options).then((a) => parseLine(a.line));
  }

  /** Like request, resolving with the raw answer line. */
  requestLine(
    method: string,
    params?: unknown,
    options: { timeoutMs?: number } = {},
  ): Promise<Answer> {
    const id = this.nextId();
    const msg = params === undefined
      ? { jsonrpc: "2.0", id, method }
      : { jsonrpc: "2.0", id, method, params };
    const timeoutMs = options.timeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(new Error(`${this.name}: server exited before ${method}`));
        return;
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(id);
        reject(new Error(`${this.name}: no answer to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.expect(id, (a) => {
        clearTimeout(timer);
        if (a.id === null) {
          reject(new Error(`${this.name}: server exited before answering ${method}`));
        } else resolve(a);
      });
      this.write(encoder.encode(JSON.stringify(msg) + "\n"));
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    const msg = params === undefined
      ? { jsonrpc: "2.0", method }
      : { jsonrpc: "2.0", method, params };
    this.write(encoder.encode(JSON.stringify(msg) + "\n"));
  }

  /** initialize + notifications/initialized. */
  async handshake(): Promise<Record<string, unknown>> {
    const answer = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "shipcode-bench", version: "1" },
    });
    this.notify("notifications/initialized");
    return answer;
  }

  /**
   * Keeps `window` requests in flight until `durationMs` has passed (at least `minCount` answered),
   * each request built by `make(id)` as byte parts. Resolves with answers/s and bytes received.
   */
  window(options: {
    window: number;
    durationMs: number;
    minCount?: number;
    make: (id: number) => Uint8Array[];
  }): Promise<{ count: number; ms: number; perSecond: number; bytesIn: number }> {
    const { window, durationMs, make } = options;
    const minCount = options.minCount ?? 1;
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      let count = 0;
      let inFlight = 0;
      let bytesIn = 0;
      let stopping = false;
      let failed = false;
      const send = () => {
        const id = this.nextId();
        inFlight++;
        this.expect(id, onAnswer);
        this.write(...make(id));
      };
      const onAnswer = (a: Answer) => {
        if (failed) return;
        if (a.id === null) {
          failed = true;
          reject(new Error(`${this.name}: server exited during the run`));
          return;
        }
        inFlight--;
        count++;
        bytesIn += a.line.length + 1;
        if (!stopping && performance.now() - t0 >= durationMs && count >= minCount) stopping = true;
        if (!stopping) send();
        else if (inFlight === 0) {
          const ms = performance.now() - t0;
          resolve({ count, ms, perSecond: (count * 1000) / ms, bytesIn });
        }
      };
      for (let i = 0; i < window; i++) send();
    });
  }

  /** Peak resident set size (VmHWM) in KiB, or NaN when the process is gone. */
  peakRssKiB(): number {
    return procStatusKiB(this.pid, "VmHWM");
  }

  /** utime + stime of the whole process (all threads) in seconds. */
  cpuSeconds(): number {
    return cpuSeconds(this.pid);
  }

  /** Closes stdin and waits for the exit (kills it after `timeoutMs`). */
  async close(timeoutMs = 5_000): Promise<Deno.CommandStatus> {
    await this.#flushDone;
    try {
      await this.#writer.close();
    } catch {
      // already closed
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        try {
          this.#child.kill("SIGKILL");
        } catch {
          // gone
        }
        resolve();
      }, timeoutMs);
    });
    const status = await Promise.race([this.#child.status, killed.then(() => this.#child.status)]);
    clearTimeout(timer);
    await this.ended;
    return status;
  }

  kill(): void {
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // gone
    }
  }
}

/**
 * Reads a /proc file of another process. Deno asks for --allow-all to read /proc/PID/* directly,
 * so the benches read it through `cat` (they run with --allow-run anyway).
 */
export function readProc(pid: number, file: string): string {
  const out = new Deno.Command("cat", {
    args: [`/proc/${pid}/${file}`],
    stdout: "piped",
    stderr: "null",
  })
    .outputSync();
  if (!out.success) throw new Error(`Cannot read /proc/${pid}/${file}`);
  return decoder.decode(out.stdout);
}

export function procStatusKiB(pid: number, key: string): number {
  try {
    const text = readProc(pid, "status");
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text);
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

let clockTicks = 0;

export function cpuSeconds(pid: number): number {
  if (clockTicks === 0) {
    try {
      const out = new Deno.Command("getconf", { args: ["CLK_TCK"], stdout: "piped" }).outputSync();
      clockTicks = Number(decoder.decode(out.stdout).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  const text = readProc(pid, "stat");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** The 1, 5 and 15 minute load averages of the machine (the benches print them: it is shared). */
export function loadAverage(): string {
  const out = new Deno.Command("cat", { args: ["/proc/loadavg"], stdout: "piped", stderr: "null" })
    .outputSync();
  return decoder.decode(out.stdout).split(" ").slice(0, 3).join(" ");
}
