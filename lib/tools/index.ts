import type { Tool } from "./tool.ts";

/** Every tool the server offers; tools/list sorts them by name. Filled by the tools issue. */
export const TOOLS: readonly Tool[] = [];
