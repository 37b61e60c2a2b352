// deno-lint-ignore-file no-console
/**
 * grep content-mode paging on the kernel tree (bench/corpus.sh), warm cache: the query of issue 9
 * and two more, each asked unpaged (head_limit 0), as one deep page (offset/head_limit), as the
 * first budget page, and as the whole chain of budget pages followed by next_offset.
 * CHECK: the unpaged lines equal `rg -n --no-heading --sort path` (with the same context flags);
 * the deep page is the matching slice; the chain concatenates to the unpaged lines and only its
 * last page says truncated: false. With `--base DIR` (an export of another commit), the same calls
 * go to that server too, interleaved call by call, so both see the same load.
 *
 *   deno run --allow-read --allow-run --allow-env bench/grep_paging.ts [--rounds 3] [--base DIR]
 */
import { loadAverage, parseLine, Peer } from "./client.ts";
import {
  CORPUS,
  median,
  oursCommand,
  requireCorpusAndServer,
  SERVER_DIR,
  serverLabel,
  timed,
} from "./servers.ts";
import { flagValue } from "./flags.ts";

const ROUNDS = Number(flagValue("--rounds") ?? 3);
const BASE = flagValue("--base");

interface Query {
  label: string;
  args: Record<string, unknown>;
  rg: string[];
}

const FOPS = "^static const struct file_operations \\w+ = \\{";
const QUERIES: Query[] = [
  {
    label: "`" + FOPS + "` in drivers/",
    args: { pattern: FOPS, path: "drivers" },
    rg: ["-e", FOPS, "drivers"],
  },
  {
    label: "the same, -C 2",
    args: { pattern: FOPS, path: "drivers", "-C": 2 },
    rg: ["-C", "2", "-e", FOPS, "drivers"],
  },
  {
    label: "`PM_RESUME`, -B 1, whole tree",
    args: { pattern: "PM_RESUME", "-B": 1 },
    rg: ["-B", "1", "-e", "PM_RESUME"],
  },
];

requireCorpusAndServer();

interface Server {
  name: string;
  peer: Peer;
}

interface Reply {
  ms: number;
  lines: string[];
  next?: number;
  truncated: boolean;
  error?: string;
}

async function grep(server: Server, args: Record<string, unknown>): Promise<Reply> {
  const t0 = performance.now();
  const a = await server.peer.requestLine("tools/call", {
    name: "grep",
    arguments: { output_mode: "content", ...args },
  }, { timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const msg = parseLine(a.line) as {
    result?: {
      isError?: boolean;
      content: { text?: string }[];
      structuredContent?: { lines?: string[]; next_offset?: number; truncated?: boolean };
    };
    error?: unknown;
  };
  const sc = msg.result?.structuredContent;
  if (msg.result === undefined || msg.result.isError || sc?.lines === undefined) {
    const why = msg.result?.content[0]?.text ?? JSON.stringify(msg.error);
    return { ms, lines: [], truncated: false, error: why };
  }
  return { ms, lines: sc.lines, next: sc.next_offset, truncated: sc.truncated === true };
}

/** Follows the budget pages from offset 0; the time is the sum of the calls. */
async function chain(server: Server, args: Record<string, unknown>) {
  const lines: string[] = [];
  let ms = 0;
  let pages = 0;
  let offset: number | undefined = 0;
  let problem = "";
  while (offset !== undefined && pages < 10_000) {
    const r = await grep(server, offset === 0 ? args : { ...args, offset });
    ms += r.ms;
    pages++;
    if (r.error) return { ms, pages, lines, problem: r.error };
    lines.push(...r.lines);
    if (r.truncated !== (r.next !== undefined)) problem ||= `page ${pages}: truncated/next_offset`;
    if (r.next !== undefined && r.next !== offset + r.lines.length) {
      problem ||= `page ${pages}: next_offset ${r.next} after ${offset + r.lines.length} lines`;
      if (r.next <= offset) break; // it would never end
    }
    offset = r.next;
  }
  return { ms, pages, lines, problem };
}

function same(a: string[], b: string[]): string {
  if (a.length !== b.length) return `${a.length} lines, expected ${b.length}`;
  const i = a.findIndex((line, k) => line !== b[k]);
  return i < 0 ? "" : `line ${i} differs`;
}

const LOAD = loadAverage();
const servers: Server[] = [{ name: "ours", peer: new Peer("ours", oursCommand(CORPUS)) }];
if (BASE !== undefined) {
  servers.push({ name: "base", peer: new Peer("base", oursCommand(CORPUS, [], BASE)) });
}
for (const s of servers) await s.peer.handshake();

type Cell = { ms: number[]; check: string };
const rows: { query: string; call: string; cells: Cell[] }[] = [];

for (const q of QUERIES) {
  const rg = await timed(
    ["rg", "-n", "--no-heading", "--hidden", "-L", "--no-unicode", "--sort", "path", ...q.rg],
    CORPUS,
  );
  const expected = rg.stdout.split("\n");
  if (expected.at(-1) === "") expected.pop();
  const deep = expected.length > 1020 ? 1000 : Math.floor(expected.length / 2);
  const calls: [string, (s: Server) => Promise<{ ms: number; check: string }>][] = [
    ["unpaged (head_limit 0)", async (s) => {
      const r = await grep(s, { ...q.args, head_limit: 0 });
      return { ms: r.ms, check: r.error ?? same(r.lines, expected) };
    }],
    [`offset ${deep}, head_limit 20`, async (s) => {
      const r = await grep(s, { ...q.args, offset: deep, head_limit: 20 });
      const want = expected.slice(deep, deep + 20);
      const more = deep + 20 < expected.length;
      return {
        ms: r.ms,
        check: r.error ?? (same(r.lines, want) ||
          (r.truncated !== more ? `truncated: ${r.truncated}` : "")),
      };
    }],
    ["first budget page", async (s) => {
      const r = await grep(s, q.args);
      const want = expected.slice(0, r.lines.length);
      return { ms: r.ms, check: r.error ?? same(r.lines, want) };
    }],
    ["all budget pages (sum)", async (s) => {
      const r = await chain(s, q.args);
      return { ms: r.ms, check: r.problem || same(r.lines, expected) + ` ${r.pages} pages` };
    }],
  ];
  for (const [call, run] of calls) {
    const cells: Cell[] = servers.map(() => ({ ms: [], check: "" }));
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [k, s] of servers.entries()) {
        const r = await run(s);
        if (round === 0) cells[k].check = r.check; // round 0 is the warm-up and the CHECK
        else cells[k].ms.push(r.ms);
      }
    }
    rows.push({ query: q.label, call, cells });
    console.error(`grep paging bench: ${q.label}, ${call} done`);
  }
}

for (const s of servers) await s.peer.close();

const verdict = (check: string) => {
  const problem = check.replace(/^ ?\d+ pages$/, "");
  return problem.trim() === "" ? `PASS${check ? `,${check}` : ""}` : `**FAIL** ${check}`;
};
console.log(
  `grep paging bench on ${CORPUS}, warm cache, median of ${ROUNDS} rounds after one warm-up ` +
    `(servers interleaved call by call); load average at start ${LOAD}; ours ${serverLabel()}` +
    (BASE !== undefined ? `; base ${BASE}` : ""),
);
console.log("");
const head = servers.map((s) => `${s.name} (ms) | CHECK ${s.name}`).join(" | ");
console.log(`| query | call | ${head} |`);
console.log(`|---|---|${servers.map(() => "---:|---|").join("")}`);
for (const row of rows) {
  const cells = row.cells.map((c) => `${Math.round(median(c.ms))} | ${verdict(c.check)}`);
  console.log(`| ${row.query.replaceAll("|", "\\|")} | ${row.call} | ${cells.join(" | ")} |`);
}
if (SERVER_DIR === BASE) console.log("(ours and base are the same checkout)");
