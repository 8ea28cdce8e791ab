/**
 * `depict-live`: the predict box's drawing as a structure is typed (html/predict.ts). Once the
 * text has rested for DEBOUNCE_MS, the first non-empty line is drawn by GET /depiction (an
 * earlier request still under way is aborted); a text that is no structure shows the service's
 * one-line message instead. Plain ES2020, no build step; the box works without it.
 */
export const DEBOUNCE_MS = 300;

export const DEPICT_LIVE = `"use strict";
(() => {
  const area = document.querySelector("textarea[data-depiction]");
  const out = document.getElementById("predict-drawing");
  if (!area || !out) return;
  const endpoint = area.getAttribute("data-depiction");
  let timer = 0;
  let pending = null;
  let last = null;
  const note = (text) => {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = text;
    out.replaceChildren(p);
  };
  async function draw() {
    const lines = area.value.split(/\\r?\\n/).map((s) => s.trim()).filter((s) => s !== "");
    const text = lines.length > 0 ? lines[0] : "";
    if (text === last) return;
    last = text;
    if (pending) pending.abort();
    pending = null;
    if (text === "") {
      out.replaceChildren();
      return;
    }
    if (text.length > 8000) {
      note("Too long to draw.");
      return;
    }
    const url = endpoint + "?smiles=" + encodeURIComponent(text);
    const ac = new AbortController();
    pending = ac;
    try {
      const r = await fetch(url, { signal: ac.signal, headers: { Accept: "image/svg+xml, text/plain;q=0.5" } });
      if (ac.signal.aborted) return;
      if (!r.ok) {
        const why = r.headers.get("Content-Type")?.startsWith("text/plain") ? (await r.text()).replace(/^\\d+ \\w+: /, "").split("\\n")[0] : "";
        note(r.status === 422 ? "Not a structure (yet)." : "No drawing: " + (why || "status " + r.status) + ".");
        return;
      }
      await r.text();
      const img = new Image(300, 200);
      img.alt = "the structure " + text;
      img.src = url;
      const parts = [img];
      if (lines.length > 1) {
        const p = document.createElement("p");
        p.className = "note";
        p.textContent = "The first of " + lines.length + " structures.";
        parts.push(p);
      }
      out.replaceChildren(...parts);
    } catch (e) {
      if (!ac.signal.aborted) note("No drawing: " + (e && e.message ? e.message : String(e)));
    }
  }
  area.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(draw, ${DEBOUNCE_MS});
  });
  draw();
})();
`;
