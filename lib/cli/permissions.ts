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

export function revokeUnused(needs: PermissionNeeds): void {
  if (!needs.write) Deno.permissions.revokeSync({ name: "write" });
  if (!needs.run) Deno.permissions.revokeSync({ name: "run" });
}
