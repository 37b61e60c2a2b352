/**
 * The process holds only the permissions its flags use. The launch flags (deno.json) grant what
 * any mode may need; at start, before any feature loads, whatever this session will not use is
 * revoked for good (workers started later inherit the revocation).
 */

export interface PermissionNeeds {
  /** --write: the edit tools write files. */
  write: boolean;
  /** The git tools are offered: the runner spawns git. */
  run: boolean;
}

/** The programs the launch line may run only to start the shared daemon (lib/daemon/launch.ts). */
export const SELF_COMMANDS = ["deno", "shipcode-mcp"] as const;

/** In one process (no daemon): no socket, no daemon to start, and what the flags leave out. */
export function revokeUnused(needs: PermissionNeeds): void {
  if (!needs.write) Deno.permissions.revokeSync({ name: "write" });
  Deno.permissions.revokeSync({ name: "net" });
  if (!needs.run) Deno.permissions.revokeSync({ name: "run" });
  else revokeSelfRun();
}

/** Gives up running this program itself (git stays). */
export function revokeSelfRun(): void {
  for (const command of SELF_COMMANDS) {
    try {
      Deno.permissions.revokeSync({ name: "run", command });
    } catch {
      // Not granted by that name (it is not on PATH): nothing to give up.
    }
  }
}

/** Gives up loading native code (lib/cli/allocator.ts is its only use). */
export function revokeNativeCode(): void {
  Deno.permissions.revokeSync({ name: "ffi" });
}

/** A relay runs no git (its daemon does). */
export function revokeGit(): void {
  try {
    Deno.permissions.revokeSync({ name: "run", command: "git" });
  } catch {
    // Not granted by that name.
  }
}
