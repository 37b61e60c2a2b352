/** JSON-RPC error codes used on the wire (JSON-RPC 2.0 plus MCP's resource-not-found). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const RESOURCE_NOT_FOUND = -32002;

/** The one error type that reaches the wire: code, message and optional data. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: number, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  static invalidParams(message: string): RpcError {
    return new RpcError(INVALID_PARAMS, message);
  }

  static resourceNotFound(uri: string, reason?: string): RpcError {
    const data: Record<string, unknown> = { uri };
    if (reason !== undefined) data.reason = reason;
    return new RpcError(RESOURCE_NOT_FOUND, "Resource not found", data);
  }

  /** The wire form, keys in the order code, message, data. */
  toJSON(): { code: number; message: string; data?: Record<string, unknown> } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
