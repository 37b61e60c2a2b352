/** MCP resources over the workspace: every served file is a resource (docs/workspace.md, docs/protocol.md). */
import { limitText } from "../byte_sizes.ts";
import type { Config } from "../config.ts";
import type { Resource, ResourceContents, ResourceProvider, ResourceTemplate } from "./resource.ts";
import { RpcError } from "../jsonrpc/errors.ts";
import { jsonEscapedLength, mebibytes, MESSAGE_CAP_BYTES } from "../message_size.ts";
import { echoableUri, looksLikeUri, pathToFileUri } from "../workspace/uri.ts";
import { readFullySync, type Workspace, WorkspaceError } from "../workspace/workspace.ts";
import { fsErrorCode } from "../workspace/fs_errors.ts";
import { signCursor, verifyCursor, warmCursorKey } from "./cursor.ts";
import { loadMimeLibrary, mimeTypeOrFallback } from "./mime.ts";
import { decodeText } from "./text.ts";
import { Listings } from "./listing.ts";
import type { EditSession } from "../edits/edit_session.ts";
import { recordBytesRead } from "../edits/record_read.ts";

export const DEFAULT_PAGE_SIZE = 1000;

const CURSOR_PURPOSE = "resources/list";

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}

/**
 * The resources provider. `options.pageSize` (default 1000) exists for tests. `warm()` loads
 * the MIME library and walks the first page ahead; `close()` drops suspended listings.
 * Without a workspace: no resources, no templates, every read -32002.
 */
export function createResourceProvider(
  workspace: Workspace | null,
  config: Config,
  options: { pageSize?: number; edits?: EditSession | null } = {},
): ResourceProvider & { close(): void; warm(options?: { firstPage?: boolean }): void } {
  return new WorkspaceResources(workspace, config, options);
}

/** The workspace's files as MCP resources: listed in signed-cursor pages, read whole. */
class WorkspaceResources implements ResourceProvider {
  readonly #workspace: Workspace | null;
  readonly #config: Config;
  readonly #edits: EditSession | null;
  readonly #pageSize: number;
  /** The walks suspended between pages, made on the first listing. */
  #listings: Listings | null = null;

  constructor(
    workspace: Workspace | null,
    config: Config,
    options: { pageSize?: number; edits?: EditSession | null },
  ) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
    }
    this.#workspace = workspace;
    this.#config = config;
    this.#edits = options.edits ?? null;
    this.#pageSize = pageSize;
    // A write makes pages walked ahead stale: they are dropped (a cursor resumes from its path).
    options.edits?.onWritten(() => this.#listings?.close());
  }

  async list(
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<{ resources: Resource[]; nextCursor?: string }> {
    let after: string | undefined;
    if (cursor !== undefined) {
      const position = await verifyCursor(CURSOR_PURPOSE, cursor);
      if (position === null) throw RpcError.invalidParams("Invalid cursor");
      after = position;
    }
    const listings = this.#lister();
    if (listings === null) return { resources: [] };
    await loadMimeLibrary();
    const { resources, more } = listings.page(after, signal);
    if (!more || resources.length === 0) return { resources };
    const last = resources[resources.length - 1].name;
    return { resources, nextCursor: await signCursor(CURSOR_PURPOSE, last) };
  }

  templates(): ResourceTemplate[] {
    const workspace = this.#workspace;
    if (workspace === null) return [];
    const base = pathToFileUri(workspace.root);
    return [{
      uriTemplate: `${base.endsWith("/") ? base : `${base}/`}{+path}`,
      name: "workspace-file",
      title: "Workspace file",
      description:
        `Any file in the workspace ${workspace.root}: path is the root-relative path with "/" ` +
        `(e.g. src/main.ts), percent-encoded as in a file URL`,
    }];
  }

  /**
   * The file `uri` names, whole. A file-system failure (EACCES, EMFILE, EIO... the codes of
   * lib/workspace/fs_errors.ts) while it is opened or read is `-32002` with that code as
   * `data.reason`: the file was found inside the workspace, so naming why it cannot be read tells
   * nothing of what lies outside.
   */
  async read(uri: string, signal: AbortSignal): Promise<{ contents: ResourceContents[] }> {
    try {
      return await this.#read(uri, signal);
    } catch (error) {
      const code = fsErrorCode(error);
      if (code === null) throw error;
      throw RpcError.resourceNotFound(uri, code);
    }
  }

  async #read(uri: string, signal: AbortSignal): Promise<{ contents: ResourceContents[] }> {
    const opened = await this.#open(uri);
    const { file, size } = opened;
    let contents: ResourceContents;
    try {
      this.#checkSize(size);
      await loadMimeLibrary();
      signal.throwIfAborted();
      // Read, decode and encode in one synchronous step into a reused buffer: a fresh buffer per
      // read costs more than the read itself, and nothing else can touch the scratch meanwhile.
      const bytes = readAll(file, size);
      const text = decodeText(bytes);
      // With --write: what the client was given counts as read (read before write).
      if (text !== null && this.#edits) await recordBytesRead(this.#edits, opened, bytes);
      contents = contentsOf(echoableUri(uri), opened.rel, bytes, text, size);
    } finally {
      file.close();
    }
    return { contents: [contents] };
  }

  /**
   * Loads the libraries and prepares the first page between requests (call once the handshake
   * is done); `firstPage: false` loads the libraries only (a shared daemon's sessions, whose
   * first page is walked when asked, not by every session that starts).
   */
  warm(options: { firstPage?: boolean } = {}): void {
    Promise.all([loadMimeLibrary(), warmCursorKey()]).then(
      () => options.firstPage === false ? undefined : this.#lister()?.prepareFirst(),
      () => {}, // nothing to warm: the first request loads what it needs
    );
  }

  /** Drops suspended listings and their timers. */
  close(): void {
    this.#listings?.close();
  }

  #lister(): Listings | null {
    if (this.#workspace === null) return null;
    this.#listings ??= new Listings(this.#workspace, this.#pageSize);
    return this.#listings;
  }

  /** The identity-checked file `uri` names; -32002 for anything not served (no reason outside). */
  async #open(uri: string): Promise<Awaited<ReturnType<Workspace["openFile"]>>> {
    if (this.#workspace === null || typeof uri !== "string" || !looksLikeUri(uri)) {
      throw RpcError.resourceNotFound(String(uri));
    }
    try {
      return await this.#workspace.openFile(uri);
    } catch (e) {
      if (!(e instanceof WorkspaceError)) throw e;
      const inside = e.reason !== "outside" && e.reason !== "invalid-path";
      throw RpcError.resourceNotFound(uri, inside ? e.reason : undefined);
    }
  }

  /** -32602 for a file over --max-read-bytes, or one whose answer cannot fit one message. */
  #checkSize(size: number): void {
    if (size > this.#config.maxReadBytes) {
      throw RpcError.invalidParams(
        `Resource too large: ${size} bytes exceeds the ${
          limitText(this.#config.maxReadBytes)
        } limit of --max-read-bytes; use read_file with offset and limit`,
      );
    }
    // A blob is base64 (4 bytes per 3) and text is JSON-escaped: at least the file's size.
    if (size + RESOURCE_ENVELOPE_BYTES > MESSAGE_CAP_BYTES) throw overMessageCap(size, size);
  }
}

/**
 * The one entry of a resources/read answer: text, or a base64 blob; -32602 when its encoding
 * would pass the message cap (`size`: the file's size when it was opened).
 */
function contentsOf(
  uri: string,
  rel: string,
  bytes: Uint8Array,
  text: string | null,
  size: number,
): ResourceContents {
  const mimeType = mimeTypeOrFallback(baseName(rel), text !== null);
  const encoded = text !== null
    ? (size * 6 + RESOURCE_ENVELOPE_BYTES <= MESSAGE_CAP_BYTES ? size : jsonEscapedLength(bytes))
    : Math.ceil(size / 3) * 4;
  if (encoded + RESOURCE_ENVELOPE_BYTES > MESSAGE_CAP_BYTES) throw overMessageCap(size, encoded);
  return text !== null ? { uri, mimeType, text } : { uri, mimeType, blob: bytes.toBase64() };
}

/** Room for the envelope of a resources/read answer (the URI is echoed twice at most). */
const RESOURCE_ENVELOPE_BYTES = 64 * 1024;

/** The refusal of a file whose answer would pass the message cap (lib/message_size.ts). */
function overMessageCap(size: number, encoded: number): RpcError {
  const grown = encoded > size ? ` (${encoded} once encoded)` : "";
  return RpcError.invalidParams(
    `Resource too large: ${size} bytes${grown} would pass the ${
      mebibytes(MESSAGE_CAP_BYTES)
    } MiB limit of one message; use read_file with offset and limit`,
  );
}

/** Largest read buffer kept for reuse between reads; bigger files get their own buffer. */
const MAX_SCRATCH = 16 * 1024 * 1024;
let scratch = new Uint8Array(0);

/** Reads up to `size` bytes of `file` synchronously; the view is valid until the next call. */
function readAll(file: Deno.FsFile, size: number): Uint8Array {
  let buffer: Uint8Array;
  if (size <= MAX_SCRATCH) {
    if (scratch.length < size) scratch = new Uint8Array(size);
    buffer = scratch.subarray(0, size);
  } else {
    buffer = new Uint8Array(size);
  }
  return readFullySync(file, buffer);
}
