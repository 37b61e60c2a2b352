/** Name rules that need no file system: ASCII case folding, `.git`, secret files, path segments. */

const UPPER = /[A-Z]/;
const UPPER_RUNS = /[A-Z]+/g;

/** Lower-cases ASCII letters only (`K` -> `k`, but the Kelvin sign stays what it is). */
export function asciiLower(text: string): string {
  return UPPER.test(text) ? text.replace(UPPER_RUNS, (run) => run.toLowerCase()) : text;
}

/** True for a path segment named `.git` in any ASCII letter case. */
export function isGitName(name: string): boolean {
  return name.length === 4 && name.charCodeAt(0) === 46 && asciiLower(name) === ".git";
}

const SECRET_EXACT = new Set([
  ".env",
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  "credentials.json",
]);
const ENV_ALLOWED = new Set([".env.example", ".env.sample", ".env.template"]);
const SECRET_EXTENSIONS = new Set(["pem", "key", "p12", "pfx", "keystore"]);
const SECRET_PREFIXES = ["id_rsa", "id_ed25519", "id_ecdsa"];

/**
 * True for a secret file name (docs/workspace.md): `.env`, `.env.*` (but not `.env.example`,
 * `.env.sample`, `.env.template`), `*.pem`, `*.key`, `*.p12`, `*.pfx`, `*.keystore`, `id_rsa*`,
 * `id_ed25519*`, `id_ecdsa*`, `.npmrc`, `.pypirc`, `.netrc`, `.git-credentials`,
 * `credentials.json`; ASCII case-insensitive.
 */
export function isSecretName(name: string): boolean {
  const first = name.charCodeAt(0) | 0x20; // ASCII lower case of a letter
  const dot = name.lastIndexOf(".");
  // Most names start with no candidate letter and have no secret extension: decide cheaply.
  if (first !== 0x2e /* . */ && first !== 0x69 /* i */ && first !== 0x63 /* c */) {
    return dot >= 0 && SECRET_EXTENSIONS.has(asciiLower(name.slice(dot + 1)));
  }
  const lower = asciiLower(name);
  if (SECRET_EXACT.has(lower)) return true;
  if (lower.startsWith(".env.")) return !ENV_ALLOWED.has(lower);
  if (dot >= 0 && SECRET_EXTENSIONS.has(lower.slice(dot + 1))) return true;
  for (const prefix of SECRET_PREFIXES) if (lower.startsWith(prefix)) return true;
  return false;
}

/**
 * Normalises a root-relative POSIX path lexically: drops empty and `.` segments, applies `..`.
 * Returns the segments, or null when the path climbs above its start.
 */
export function normalizeSegments(path: string): string[] | null {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else {
      out.push(segment);
    }
  }
  return out;
}

/** `rel` of `path` under `base` (both absolute and normalised), by whole segments; null when outside. */
export function relativeUnder(path: string, base: string): string | null {
  if (path === base) return "";
  if (base === "/") return path.startsWith("/") ? path.slice(1) : null;
  if (path.startsWith(base) && path.charCodeAt(base.length) === 47) {
    return path.slice(base.length + 1);
  }
  return null;
}

/** The absolute path of a root-relative path (`""` is the root itself). */
export function joinRoot(root: string, rel: string): string {
  if (rel === "") return root;
  return root === "/" ? `/${rel}` : `${root}/${rel}`;
}

/** Order of two root-relative paths as a depth-first walk sorted by name emits them. */
export function comparePaths(a: string, b: string): number {
  const sa = a === "" ? [] : a.split("/");
  const sb = b === "" ? [] : b.split("/");
  const n = Math.min(sa.length, sb.length);
  for (let i = 0; i < n; i++) {
    if (sa[i] < sb[i]) return -1;
    if (sa[i] > sb[i]) return 1;
  }
  return sa.length - sb.length;
}

/** A control character (U+0000-U+001F, U+007F) or a line or paragraph separator (U+2028, U+2029). */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

/**
 * True for a name that is never served (docs/workspace.md): a control character or line separator in
 * it would forge output lines (`a\nREADME.md:1:...`).
 */
export function hasControlChar(name: string): boolean {
  return CONTROL.test(name);
}
