/**
 * Reading a `text/event-stream` (the task progress stream, README "Tasks") as it arrives, after
 * the WHATWG event-stream rules the client needs: lines end with CRLF, LF or CR; `event:` names
 * the event (default `message`), `data:` lines are joined with LF, one space after the colon is
 * dropped, a line starting with `:` is a comment, a blank line dispatches the event (one with no
 * data is dropped). Chunks may split lines and events anywhere, a CRLF included.
 */

export interface ServerEvent {
  readonly event: string;
  readonly data: string;
}

export class EventStreamParser {
  #buffer = "";
  #event = "";
  #data: string[] = [];
  /** A chunk ended with CR: a LF at the start of the next one belongs to it. */
  #afterCr = false;

  /** The events completed by this chunk. */
  push(chunk: string): ServerEvent[] {
    if (this.#afterCr && chunk.startsWith("\n")) chunk = chunk.slice(1);
    this.#afterCr = false;
    this.#buffer += chunk;
    const out: ServerEvent[] = [];
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.#buffer);
      if (!m) break;
      // A CR at the very end may be the first half of a CRLF: take the line, skip the LF later.
      if (m[0] === "\r" && m.index === this.#buffer.length - 1) this.#afterCr = true;
      const line = this.#buffer.slice(0, m.index);
      this.#buffer = this.#buffer.slice(m.index + m[0].length);
      const e = this.#line(line);
      if (e) out.push(e);
    }
    return out;
  }

  #line(line: string): ServerEvent | undefined {
    if (line === "") {
      const e = this.#data.length > 0 ? { event: this.#event || "message", data: this.#data.join("\n") } : undefined;
      this.#event = "";
      this.#data = [];
      return e;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.#event = value;
    else if (field === "data") this.#data.push(value);
    return undefined;
  }
}
