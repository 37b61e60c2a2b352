/** Fixture trees for workspace and resources tests, built in a temp folder and removed after. */
import { Workspace, type WorkspaceOptions } from "../../lib/workspace/workspace.ts";

/** Files to create: path -> contents (string or bytes); a path ending in "/" is a folder. */
export type Tree = Record<string, string | Uint8Array>;

export async function writeTree(base: string, tree: Tree): Promise<void> {
  for (const [path, contents] of Object.entries(tree)) {
    const abs = `${base}/${path}`;
    if (path.endsWith("/")) {
      await Deno.mkdir(abs, { recursive: true });
      continue;
    }
    await Deno.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    if (typeof contents === "string") await Deno.writeTextFile(abs, contents);
    else await Deno.writeFile(abs, contents);
  }
}

/** /dev/shm when it is there (creating 100k files on it takes seconds less), else undefined. */
function memoryTemp(): string | undefined {
  try {
    // Deno asks for --allow-all under /dev: without it, fall back to the default temp folder.
    return Deno.statSync(Deno.realPathSync("/dev/shm")).isDirectory ? "/dev/shm" : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A temp folder `<tmp>/<name>` holding `tree`; `dispose` removes the temp folder. `inMemory`
 * puts it on /dev/shm when available (for trees of many entries).
 */
export async function makeTree(
  tree: Tree,
  name = "root",
  options: { inMemory?: boolean } = {},
): Promise<{ base: string; root: string; dispose: () => Promise<void> }> {
  const dir = options.inMemory ? memoryTemp() : undefined;
  const base = await Deno.makeTempDir({ prefix: "shipcode_ws_", dir });
  const root = `${base}/${name}`;
  await Deno.mkdir(root, { recursive: true });
  await writeTree(root, tree);
  return { base, root, dispose: () => Deno.remove(base, { recursive: true }) };
}

export function openWorkspaceAt(root: string, options: Partial<WorkspaceOptions> = {}): Workspace {
  return Workspace.openSync({ root, noIgnore: false, allowSecrets: false, ...options });
}

/** Every rel path of a full walk (files only unless `dirs`). */
export function walkAll(ws: Workspace, start = "", options: { dirs?: boolean } = {}): string[] {
  return [...ws.walk(start, options)].map((e) => e.rel);
}

/** Runs a shell command (for FIFOs and non-UTF-8 names, which Deno cannot create). */
export async function sh(script: string, cwd?: string): Promise<void> {
  const out = await new Deno.Command("bash", { args: ["-c", script], cwd, stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`bash failed: ${new TextDecoder().decode(out.stderr)}`);
}
