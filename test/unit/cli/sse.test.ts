/**
 * Reading the task event stream (src/cli/sse.ts) after the WHATWG event-stream rules: the
 * service's events (`event: progress` / `event: status`, one `data:` line of JSON, a blank
 * line), chunks split anywhere — inside a CRLF too —, multi-line data, comments, the default
 * event name. Streams written by hand.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EventStreamParser } from "../../../src/cli/sse.ts";

const STREAM = 'event: progress\ndata: {"status":"Running","percentageCompleted":12.5}\n\nevent: status\ndata: {"status":"Completed","percentageCompleted":100}\n\n';

describe("EventStreamParser", () => {
  it("the service's two kinds of events, in one chunk", () => {
    assert.deepEqual(new EventStreamParser().push(STREAM), [
      { event: "progress", data: '{"status":"Running","percentageCompleted":12.5}' },
      { event: "status", data: '{"status":"Completed","percentageCompleted":100}' },
    ]);
  });

  it("the same stream, with LF or CRLF line ends, cut into two chunks at every position gives the same events", () => {
    const whole = new EventStreamParser().push(STREAM);
    for (const stream of [STREAM, STREAM.replace(/\n/g, "\r\n")]) {
      for (let i = 1; i < stream.length; i++) {
        const p = new EventStreamParser();
        assert.deepEqual([...p.push(stream.slice(0, i)), ...p.push(stream.slice(i))], whole, `cut at ${i}`);
      }
    }
  });

  it("CRLF line ends, split between the CR and the LF: one line end, not a blank line", () => {
    const p = new EventStreamParser();
    const a = p.push("event: status\r\ndata: x\r");
    const b = p.push("\ndata: y\r\n\r\n");
    assert.deepEqual([...a, ...b], [{ event: "status", data: "x\ny" }]);
  });

  it("multi-line data, comments, default event name, no space after the colon, an event without data dropped", () => {
    assert.deepEqual(new EventStreamParser().push(": keep-alive\ndata:one\ndata: two\n\nevent: empty\n\n"), [{ event: "message", data: "one\ntwo" }]);
  });

  it("an event is not given before its blank line", () => {
    const p = new EventStreamParser();
    assert.deepEqual(p.push("event: progress\ndata: {}\n"), []);
    assert.deepEqual(p.push("\n"), [{ event: "progress", data: "{}" }]);
  });
});
