// Splits a byte stream into lines without ever holding more than one line (plus one chunk) in
// memory. Fed chunk by chunk; hands complete lines to a callback. Pure: the caller does the I/O.
//
// Hostile input handled here, so parsers only ever see sane text:
// - a UTF-8 BOM at the start, CRLF line ends, empty lines; UTF-16 text with its byte-order mark;
// - lines longer than `maxLineBytes` are dropped while streaming (never buffered) and reported;
// - invalid UTF-8 is decoded with U+FFFD and counted; lines containing NUL are reported as binary;
// - a last line without a newline is flagged so the caller can tell a truncated log.

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface LineInfo {
  /** 1-based physical line number. */
  line: number;
  /** The decoded line without its line terminator. */
  text: string;
  /** The line had bytes that are not valid UTF-8 (replaced by U+FFFD). */
  invalidUtf8: boolean;
  /** The stream ended without a newline after this line. */
  last: boolean;
}

export interface LineProblem {
  line: number;
  kind: 'oversize' | 'binary';
  bytes: number;
}

export interface LineSplitterOptions {
  maxLineBytes?: number;
  onLine(info: LineInfo): void;
  onProblem(problem: LineProblem): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const REPLACEMENT = '\uFFFD';

export class LineSplitter {
  private readonly max: number;
  private readonly onLine: (info: LineInfo) => void;
  private readonly onProblem: (problem: LineProblem) => void;
  /** Pieces of the current, unfinished line (empty while discarding an oversize line). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the current line dropped because it is over the cap. */
  private discarding = 0;
  private lineNo = 0;
  private atStart = true;
  /** The stream's first bytes, while fewer than a byte-order mark's three. */
  private head: Buffer = Buffer.alloc(0);
  /** Set when the stream began with a UTF-16 byte-order mark. */
  private utf16: TextDecoder | null = null;
  bytesSeen = 0;

  constructor(opts: LineSplitterOptions) {
    this.max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.onLine = opts.onLine;
    this.onProblem = opts.onProblem;
  }

  get lines(): number {
    return this.lineNo;
  }

  push(chunk: Uint8Array): void {
    let buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.bytesSeen += buf.length;
    if (this.atStart && buf.length > 0) {
      // The byte-order mark may arrive cut between chunks: hold the first bytes until there are three.
      if (this.head.length + buf.length < 3) {
        this.head = Buffer.concat([this.head, buf]);
        return;
      }
      buf = this.head.length > 0 ? Buffer.concat([this.head, buf]) : buf;
      this.head = Buffer.alloc(0);
      this.atStart = false;
      if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      // A UTF-16 byte-order mark (Windows PowerShell's `>` writes UTF-16LE): the text is decoded
      // as it streams and split like UTF-8, instead of every line being "binary" for its zero bytes.
      else if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) this.utf16 = new TextDecoder(buf[0] === 0xff ? 'utf-16le' : 'utf-16be');
    }
    if (this.utf16) buf = Buffer.from(this.utf16.decode(buf, { stream: true }), 'utf8');
    let pos = 0;
    while (pos < buf.length) {
      const nl = buf.indexOf(NEWLINE, pos);
      if (nl === -1) {
        // The unfinished tail is copied, so the chunk (often a 4 MiB read) is not kept alive
        // until the line ends in some later chunk.
        this.accumulate(buf.subarray(pos), true);
        return;
      }
      this.accumulate(buf.subarray(pos, nl));
      this.finishLine(false);
      pos = nl + 1;
    }
  }

  /** Call once at the end of the stream. */
  end(): void {
    if (this.atStart && this.head.length > 0) {
      // a stream of one or two bytes: a UTF-16 mark alone is an empty file; anything else is text
      const head = this.head;
      if (head.length === 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) {
        this.atStart = false;
        this.head = Buffer.alloc(0);
        return;
      }
      this.atStart = false;
      this.head = Buffer.alloc(0);
      this.bytesSeen -= head.length;
      this.push(head);
    }
    const tail = this.utf16?.decode();
    if (tail) {
      this.utf16 = null;
      this.push(Buffer.from(tail, 'utf8'));
    }
    if (this.pendingBytes > 0 || this.discarding > 0) this.finishLine(true);
  }

  private accumulate(piece: Buffer, copy = false): void {
    if (piece.length === 0) return;
    if (this.discarding > 0) {
      this.discarding += piece.length;
      return;
    }
    if (this.pendingBytes + piece.length > this.max) {
      this.discarding = this.pendingBytes + piece.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Within a chunk a slice, not a copy: the line is finished before the chunk is released.
    this.pending.push(copy ? Buffer.from(piece) : piece);
    this.pendingBytes += piece.length;
  }

  private finishLine(last: boolean): void {
    this.lineNo++;
    if (this.discarding > 0) {
      this.onProblem({ line: this.lineNo, kind: 'oversize', bytes: this.discarding });
      this.discarding = 0;
      return;
    }
    let bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length === 0) return;
    if (bytes.indexOf(0) !== -1) {
      this.onProblem({ line: this.lineNo, kind: 'binary', bytes: bytes.length });
      return;
    }
    const text = bytes.toString('utf8');
    const invalidUtf8 = text.includes(REPLACEMENT) && !hasEncodedReplacement(bytes);
    this.onLine({ line: this.lineNo, text, invalidUtf8, last });
  }
}

/** True when the bytes themselves contain an encoded U+FFFD (EF BF BD), i.e. it is not an error. */
function hasEncodedReplacement(bytes: Buffer): boolean {
  return bytes.indexOf('\uFFFD', 0, 'utf8') !== -1 && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}
