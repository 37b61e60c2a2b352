/**
 * `--tools LIST`: which tools a session offers, by name or group (README, "Choosing the tools").
 * Names only, no tool code: the flags are parsed before anything heavy loads. The names must be
 * those of lib/tools/index.ts (tests/cli/tool_selection_test.ts holds the two together).
 */

/** The groups, each a family of tools, in the order --help lists them. */
export const TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  search: ["grep", "glob"],
  read: ["read_file", "list_dir"],
  symbols: ["outline", "find_symbol", "find_references"],
  semantic: ["go_to_definition", "rename_symbol", "diagnostics"],
  git: ["git_status", "git_diff", "git_log", "git_show", "git_blame"],
  edit: ["edit_file", "write_file", "delete_file", "move_file"],
};

/** Every tool name the server knows, sorted. */
export const TOOL_NAMES: readonly string[] = Object.values(TOOL_GROUPS).flat().sort();

/** The names a LIST selects (comma-separated names and groups), or the first unknown word. */
export function selectTools(list: string): { names: Set<string> } | { unknown: string } {
  const names = new Set<string>();
  for (const raw of list.split(",")) {
    const word = raw.trim();
    if (word === "") continue;
    const group = Object.hasOwn(TOOL_GROUPS, word) ? TOOL_GROUPS[word] : undefined;
    if (group !== undefined) { for (const name of group) names.add(name); }
    else if (TOOL_NAMES.includes(word)) names.add(word);
    else return { unknown: word };
  }
  return { names };
}
