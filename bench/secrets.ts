/**
 * The default secret-file list of docs/workspace.md, for the benchmarks' CHECKs: our listings must equal
 * ripgrep's minus these (matched per path segment, ASCII case-insensitively, on the path as named
 * and on the real path of its target).
 */

const SECRET_ALLOWED_ENV = new Set([".env.example", ".env.sample", ".env.template"]);
const SECRET_NAMES = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  "credentials.json",
]);
const SECRET_SUFFIXES = [".pem", ".key", ".p12", ".pfx", ".keystore"];
const SECRET_PREFIXES = ["id_rsa", "id_ed25519", "id_ecdsa"];

export function isSecretName(segment: string): boolean {
  const s = segment.toLowerCase();
  if (s === ".env" || (s.startsWith(".env.") && !SECRET_ALLOWED_ENV.has(s))) return true;
  if (SECRET_NAMES.has(s)) return true;
  if (SECRET_SUFFIXES.some((x) => s.endsWith(x))) return true;
  return SECRET_PREFIXES.some((x) => s.startsWith(x));
}

/** True when a segment of the path is a secret name or `.git`. */
export function isRefusedPath(relPath: string): boolean {
  return relPath.split("/").some((seg) => seg.toLowerCase() === ".git" || isSecretName(seg));
}

/**
 * The paths (root-relative) we must not serve: refused as named, or whose real path (relative to
 * the real root) is refused.
 */
export function refusedPaths(root: string, paths: Iterable<string>): Set<string> {
  const realRoot = Deno.realPathSync(root);
  const out = new Set<string>();
  for (const p of paths) {
    if (isRefusedPath(p)) {
      out.add(p);
      continue;
    }
    let real: string;
    try {
      real = Deno.realPathSync(`${root}/${p}`);
    } catch {
      continue;
    }
    if (real.startsWith(realRoot + "/") && isRefusedPath(real.slice(realRoot.length + 1))) {
      out.add(p);
    }
  }
  return out;
}
