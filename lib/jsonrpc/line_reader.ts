/**
 * Splits a byte stream into text lines (one JSON-RPC message per line) with a byte cap.
 *
 * LF ends a line and one CR right before it is dropped; a last line without LF still counts;
 * blank and whitespace-only lines are skipped. Invalid UTF-8 becomes U+FFFD. A line longer than
 * the cap is never buffered whole: its bytes are dropped as they arrive and it is reported once.
 */

export type LineEvent = { kind: "line"; text: string } | { kind: "too-long" };

const LF = 0x0a;
const CR = 0x0d;

export class LineReader extends TransformStream<Uint8Array, LineEvent> {
  constructor(maxLineBytes: number) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${maxLineBytes}`);
    }
    const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
    let parts: Uint8Array[] = [];
    let buffered = 0;
    let discarding = false;

    function emit(
      controller: TransformStreamDefaultController<LineEvent>,
      tail: Uint8Array,
    ): void {
      let bytes: Uint8Array;
      if (parts.length === 0) {
        bytes = tail;
      } else {
        bytes = new Uint8Array(buffered + tail.length);
        let at = 0;
        for (const part of parts) {
          bytes.set(part, at);
          at += part.length;
        }
        bytes.set(tail, at);
        parts = [];
      }
      buffered = 0;
      let end = bytes.length;
      if (end > 0 && bytes[end - 1] === CR) end--;
      if (end > maxLineBytes) {
        controller.enqueue({ kind: "too-long" });
        return;
      }
      const text = decoder.decode(bytes.subarray(0, end));
      if (text.trim() !== "") controller.enqueue({ kind: "line", text });
    }

    function keep(
      controller: TransformStreamDefaultController<LineEvent>,
      piece: Uint8Array,
    ): void {
      if (discarding || piece.length === 0) return;
      // A CR may still be dropped if LF follows, so allow one byte over the cap before refusing.
      if (buffered + piece.length > maxLineBytes + 1) {
        parts = [];
        buffered = 0;
        discarding = true;
        controller.enqueue({ kind: "too-long" });
        return;
      }
      // Copy: the producer may reuse its buffer once the chunk is handed over.
      parts.push(piece.slice());
      buffered += piece.length;
    }

    super({
      transform(chunk, controller) {
        let start = 0;
        while (start < chunk.length) {
          const lf = chunk.indexOf(LF, start);
          if (lf === -1) {
            keep(controller, chunk.subarray(start));
            return;
          }
          if (discarding) {
            discarding = false;
          } else if (buffered + (lf - start) > maxLineBytes + 1) {
            parts = [];
            buffered = 0;
            controller.enqueue({ kind: "too-long" });
          } else {
            emit(controller, chunk.subarray(start, lf));
          }
          start = lf + 1;
        }
      },
      flush(controller) {
        if (discarding) return;
        if (buffered > 0) emit(controller, new Uint8Array(0));
      },
    });
  }
}
