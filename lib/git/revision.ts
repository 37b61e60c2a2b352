/**
 * Revisions from the client never reach git as options (docs/tools.md, "Git tools: the security
 * model"): a value starting with `-` is refused, everything else is resolved with
 * `rev-parse --verify -q --end-of-options <rev>^{kind}`, and only the object id is passed on.
 */
import { GitError, type GitRunner } from "./runner.ts";

export type ObjectKind = "commit" | "tree" | "blob";

const MAX_REVISION_LENGTH = 1000;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Refuses revision text git could read as an option or that cannot be a revision at all. */
export function checkRevisionText(rev: string, what = "revision"): void {
  if (rev === "") throw new GitError(`Empty ${what}: give a branch, tag, commit id or HEAD~N`);
  if (rev.startsWith("-")) {
    throw new GitError(
      `Invalid ${what} ${JSON.stringify(rev)}: a revision cannot start with "-"`,
    );
  }
  if (rev.length > MAX_REVISION_LENGTH || hasControl(rev)) {
    throw new GitError(`Invalid ${what} ${JSON.stringify(rev.slice(0, 200))}`);
  }
}

/**
 * The object id `rev` names, peeled to `kind` (default commit), or GitError saying it names no
 * such object. `optional`: null instead of the error when nothing matches.
 */
export async function resolveRevision(
  runner: GitRunner,
  rev: string,
  options: { kind?: ObjectKind; signal?: AbortSignal; what?: string; optional?: boolean } = {},
): Promise<string | null> {
  const what = options.what ?? "revision";
  checkRevisionText(rev, what);
  const kind = options.kind ?? "commit";
  let result;
  try {
    result = await runner.run(
      ["rev-parse", "--verify", "-q", "--end-of-options", `${rev}^{${kind}}`],
      { signal: options.signal, okCodes: [1], capBytes: 4096 },
    );
  } catch (error) {
    // e.g. a missing object in a partial clone: "fatal: transport 'ext' not allowed"
    if (options.optional && error instanceof GitError) return null;
    throw error;
  }
  const oid = new TextDecoder().decode(result.stdout).trim();
  if (result.code === 0 && OID.test(oid)) return oid;
  if (options.optional) return null;
  throw new GitError(
    `Unknown ${what} ${JSON.stringify(rev)}: it names no ${kind}; ` +
      "give a branch, tag, commit id or HEAD~N",
  );
}

/** Like resolveRevision, never null. */
export async function resolveCommit(
  runner: GitRunner,
  rev: string,
  options: { signal?: AbortSignal; what?: string } = {},
): Promise<string> {
  return (await resolveRevision(runner, rev, options))!;
}

/**
 * Several commits at once: one `rev-parse a^{commit} b^{commit}` call (one process instead of one
 * each). Without `--verify`, git 2.39's rev-parse does not honour `--end-of-options` (it prints it
 * back), so none is given: no argument can be an option anyway, since each was checked not to start
 * with `-`. When that does not give one id per revision (an unknown one, or a file named like the
 * argument, which rev-parse prints back), each is resolved alone, so the error names the one at
 * fault.
 */
export async function resolveCommits(
  runner: GitRunner,
  revs: readonly { rev: string; what: string }[],
  signal?: AbortSignal,
): Promise<string[]> {
  for (const { rev, what } of revs) checkRevisionText(rev, what);
  try {
    const out = await runner.run(
      ["rev-parse", ...revs.map(({ rev }) => `${rev}^{commit}`)],
      { signal, capBytes: 4096 * revs.length },
    );
    const oids = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
    if (oids.length === revs.length && oids.every((oid) => OID.test(oid))) return oids;
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
  }
  const out: string[] = [];
  for (const { rev, what } of revs) out.push(await resolveCommit(runner, rev, { signal, what }));
  return out;
}
