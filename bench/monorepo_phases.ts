// deno-lint-ignore-file no-console
/**
 * Where a references answer's time and memory go on a monorepo (docs/BENCHMARKS.md "Semantic: the
 * first answer for a position in a monorepo"): the TypeScript engine's own classes (ProjectSet
 * with the shared document registry, as the worker builds them) driven in this process, timing
 * each step of a first find_references as the worker takes them: the configs read, the owning
 * project's program and references, the walk that picks the other candidates
 * (ProjectSet.candidates), then each candidate's program, checker and references, with the heap
 * after each.
 *
 *   deno run -A bench/monorepo_phases.ts --root /path/to/honojs+hono --path src/compose.ts \
 *     --name compose
 */
import ts from "typescript";
import { Workspace } from "../lib/workspace/workspace.ts";
import { TypeFiles } from "../lib/semantic/typescript/type_files.ts";
import { ProjectSet } from "../lib/semantic/typescript/projects.ts";
import { sharedRegistry } from "../lib/semantic/typescript/shared_registry.ts";
import { loadAverage } from "./client.ts";
import { flagValue } from "./flags.ts";

const root = flagValue("--root");
const rel = flagValue("--path");
const name = flagValue("--name");
if (root === undefined || rel === undefined || name === undefined) {
  throw new Error("give --root, --path (root-relative) and --name (declared in that file)");
}
const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
const libDir = ts.getDefaultLibFilePath({}).replace(/\/[^/]*$/, "");
const files = new TypeFiles(ws, libDir, 4 * 1024 * 1024);
const token = { isCancellationRequested: () => false, throwIfCancellationRequested() {} };
const registry = sharedRegistry(ts, ts.createDocumentRegistry(true, ws.root));
const set = new ProjectSet(ts, files, registry, token, () => {});
const path = files.absOf(rel);
console.log(`load ${loadAverage()}`);
let t = performance.now();
const lap = (what: string) => {
  const now = performance.now();
  const heap = (Deno.memoryUsage().heapUsed / 1048576).toFixed(0);
  console.log(`${what}: ${(now - t).toFixed(0)} ms, heap ${heap} MiB`);
  t = now;
};
const owner = set.projectFor(rel);
lap(`configs read, owner ${owner.key}`);
const program = owner.service.getProgram()!;
lap(`owner program (${program.getSourceFiles().length} files)`);
const text = program.getSourceFile(path)!.text;
const at = text.indexOf(
  name,
  text.search(new RegExp(`(?:function|const|interface|type|class) ${name}\\b`)),
);
const count = (project: typeof owner) =>
  (project.service.findReferences(path, at) ?? []).flatMap((s) => s.references).length;
lap(`owner references ${count(owner)}`);
const candidates = set.candidates(path);
lap(`candidates walk (${candidates.map((c) => c.key).join(", ")})`);
for (const project of candidates) {
  if (project === owner) continue;
  const p = project.service.getProgram()!;
  lap(`  ${project.key} program (${p.getSourceFiles().length} files)`);
  if (!project.holds(path)) continue;
  p.getTypeChecker();
  lap(`  ${project.key} checker`);
  lap(`  ${project.key} references ${count(project)}`);
}
