/** Symbols of files written to a fresh temporary root, through the real parser worker. */
import { type FileOutcome, SymbolService } from "../../lib/symbols/service.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";

export const PARSE_OPTIONS = { signal: new AbortController().signal, maxBytes: 1 << 20 };

/** Writes `files` (name -> text) to a temporary root and runs `body` with a one-worker service. */
export async function withSymbolFiles<T>(
  files: Record<string, string>,
  body: (ws: Workspace, service: SymbolService) => Promise<T>,
): Promise<T> {
  const root = await Deno.makeTempDir();
  const service = new SymbolService({ workers: 1 });
  try {
    for (const [name, text] of Object.entries(files)) {
      const slash = name.lastIndexOf("/");
      if (slash > 0) await Deno.mkdir(`${root}/${name.slice(0, slash)}`, { recursive: true });
      await Deno.writeTextFile(`${root}/${name}`, text);
    }
    return await body(Workspace.openSync({ root, noIgnore: true, allowSecrets: false }), service);
  } finally {
    service.stop();
    await Deno.remove(root, { recursive: true });
  }
}

/** The symbols of every file of `files`, by name. */
export function parseFiles(files: Record<string, string>): Promise<Map<string, FileOutcome>> {
  return withSymbolFiles(
    files,
    (ws, service) => service.symbols(ws, Object.keys(files), PARSE_OPTIONS),
  );
}
