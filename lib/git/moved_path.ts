/**
 * Where a file was at a revision that does not have it under the path asked (docs/tools.md
 * "git_show", "git_blame"): its older name there (the path is the newer name), or its newer name
 * (the path is the older one and the file moved away before the revision).
 */
import { parseFollowRenames, renamedAway } from "./renames.ts";
import type { GitRunner } from "./runner.ts";

/** The most older names of a path checked against the revision. */
const MAX_OLD_NAMES = 20;

/**
 * `": ..."` ending the sentence `No file "<rel>" at revision "<rev>"` with the path the file had
 * there and the call that takes it (`tool`), or null when no rename explains the miss.
 */
export async function movedHint(
  git: GitRunner,
  target: { oid: string; rel: string; tool: string },
  signal: AbortSignal,
): Promise<string | null> {
  return await olderName(git, target, signal) ?? await newerName(git, target, signal);
}

/** The path's history from HEAD across renames: one of its older names may exist at `oid`. */
async function olderName(
  git: GitRunner,
  { oid, rel, tool }: { oid: string; rel: string; tool: string },
  signal: AbortSignal,
): Promise<string | null> {
  const followed = await git.run(
    ["log", "--follow", "-M", "--name-status", "-z", "--format=%x01%H", "HEAD", "--", rel],
    { signal, okCodes: [128] },
  );
  const renames = followed.code === 0 && !followed.capped
    ? parseFollowRenames(followed.stdout)
    : [];
  const olds = [...new Set(renames.map((r) => r.from))].slice(0, MAX_OLD_NAMES);
  if (olds.length === 0) return null;
  const check = await git.run(["cat-file", "--batch-check"], {
    signal,
    stdin: new TextEncoder().encode(olds.map((p) => `${oid}:${p}\n`).join("")),
  });
  const answers = new TextDecoder().decode(check.stdout).split("\n");
  for (let i = 0; i < olds.length; i++) {
    if (!/ blob \d+$/.test(answers[i] ?? "")) continue;
    const rename = renames.find((r) => r.from === olds[i])!;
    return `: there it is named ${olds[i]} (renamed to ${rename.to} in ${
      rename.commit.slice(0, 8)
    }); call ${tool} with that path`;
  }
  return null;
}

/** The path is an old name: the last commit up to `oid` that touched it may have moved it. */
async function newerName(
  git: GitRunner,
  { oid, rel, tool }: { oid: string; rel: string; tool: string },
  signal: AbortSignal,
): Promise<string | null> {
  const last = await git.run(["log", "-1", "--format=%H", oid, "--", rel], { signal });
  const commit = new TextDecoder().decode(last.stdout).trim();
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return null;
  const moved = await renamedAway(git, commit, rel, signal);
  if (moved === null) return null;
  return `: it was moved to ${moved} in ${commit.slice(0, 8)}; call ${tool} with that path`;
}
