/**
 * A tiny deterministic SVG chart frame for the validation report's plots (plots.ts): linear
 * axes with "nice" ticks, axis labels, a title, a legend, and series drawn as polylines or
 * circles. Output is a standalone `<svg>` element (valid XML, SVG namespace, no ids, no
 * scripts); coordinates are printed with two decimals so the same input gives the same bytes.
 */

/** Escapes text and attribute values for XML (and HTML). */
export function xmlEscape(s: unknown): string {
  return String(s ?? "")
    .replace(INVALID_XML, "\uFFFD")
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Characters XML 1.0 does not allow (controls, U+FFFE/U+FFFF, lone surrogates). */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** At most `max` characters (code points), with an ellipsis when cut. */
export function shorten(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : s;
}

/** Colour-blind-safe palette (Okabe–Ito, then a few more). */
export const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933", "#882255", "#44AA99"];

const f2 = (x: number): string => {
  const s = x.toFixed(2);
  return s === "-0.00" ? "0.00" : s;
};

/** Ticks at multiples of 1, 2 or 5 × 10^m inside [lo, hi], the step nearest (hi − lo)/count. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo) || !Number.isFinite(hi - lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const err = raw / mag;
  const step = mag * (err >= Math.sqrt(50) ? 10 : err >= Math.sqrt(10) ? 5 : err >= Math.sqrt(2) ? 2 : 1);
  const out: number[] = [];
  for (let m = Math.ceil(lo / step - 1e-9); m * step <= hi + step * 1e-9; m++) out.push(m === 0 ? 0 : Number((m * step).toPrecision(12)));
  return out;
}

/** A tick label: as few decimals as the tick step needs. */
function tickLabel(t: number, ticks: readonly number[]): string {
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : 1;
  const d = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  const s = t.toFixed(d);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/** Extends [lo, hi] so that it is not empty and has a small margin. */
export function paddedDomain(values: readonly number[], fallback: readonly [number, number] = [0, 1]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [fallback[0], fallback[1]];
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (hi === lo) (lo -= 0.5), (hi += 0.5);
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

export interface Series {
  readonly label: string;
  readonly kind: "line" | "points";
  readonly points: readonly (readonly [number, number])[];
  readonly color?: string;
  /** Dashed line (reference lines such as the diagonal). */
  readonly dashed?: boolean;
  /** Left out of the legend. */
  readonly hideInLegend?: boolean;
}

export interface Chart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly x: readonly [number, number];
  readonly y: readonly [number, number];
  readonly series: readonly Series[];
  /** Shown in the middle of the plot area when there is nothing to draw. */
  readonly emptyText?: string;
  /** Show the legend even for one series (a comparison's plot names its lines); default: from two on. */
  readonly legend?: boolean;
  readonly width?: number;
  readonly height?: number;
}

/** Renders a chart as an `<svg>` element. */
export function renderChart(c: Chart): string {
  const legend = c.series.map((s, k) => ({ s, color: s.color ?? PALETTE[k % PALETTE.length]! })).filter((e) => !e.s.hideInLegend);
  const legendWidth = legend.length > 1 || (c.legend && legend.length > 0) ? 96 : 0; // the legend sits right of the plot area
  const W = (c.width ?? 480) + legendWidth;
  const H = c.height ?? 360;
  const m = { l: 60, r: 16 + legendWidth, t: 34, b: 48 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const [x0, x1] = c.x;
  const [y0, y1] = c.y;
  const sx = (x: number): number => m.l + ((x - x0) / (x1 - x0 || 1)) * pw;
  const sy = (y: number): number => m.t + ph - ((y - y0) / (y1 - y0 || 1)) * ph;
  const inside = (x: number, y: number): boolean =>
    Number.isFinite(x) && Number.isFinite(y) && x >= x0 && x <= x1 && y >= y0 && y <= y1;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" font-family="sans-serif" font-size="11">`,
    `<title>${xmlEscape(c.title)}</title>`,
    `<rect class="background" x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text class="title" x="${f2(W / 2)}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${xmlEscape(c.title)}</text>`,
  );
  const xt = niceTicks(x0, x1);
  const yt = niceTicks(y0, y1);
  out.push(`<g class="grid" stroke="#e5e5e5" stroke-width="1">`);
  for (const t of xt) out.push(`<line x1="${f2(sx(t))}" y1="${m.t}" x2="${f2(sx(t))}" y2="${m.t + ph}"/>`);
  for (const t of yt) out.push(`<line x1="${m.l}" y1="${f2(sy(t))}" x2="${m.l + pw}" y2="${f2(sy(t))}"/>`);
  out.push(`</g>`);
  out.push(`<g class="axes" stroke="#333333" stroke-width="1" fill="#333333">`);
  out.push(`<line x1="${m.l}" y1="${m.t + ph}" x2="${m.l + pw}" y2="${m.t + ph}"/>`, `<line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${m.t + ph}"/>`);
  for (const t of xt) {
    out.push(`<text x="${f2(sx(t))}" y="${m.t + ph + 15}" text-anchor="middle" stroke="none">${xmlEscape(tickLabel(t, xt))}</text>`);
  }
  for (const t of yt) {
    out.push(`<text x="${m.l - 5}" y="${f2(sy(t) + 4)}" text-anchor="end" stroke="none">${xmlEscape(tickLabel(t, yt))}</text>`);
  }
  out.push(
    `<text class="x-label" x="${f2(m.l + pw / 2)}" y="${H - 10}" text-anchor="middle" stroke="none" font-size="12">${xmlEscape(c.xLabel)}</text>`,
    `<text class="y-label" x="14" y="${f2(m.t + ph / 2)}" text-anchor="middle" stroke="none" font-size="12" transform="rotate(-90 14 ${f2(m.t + ph / 2)})">${xmlEscape(c.yLabel)}</text>`,
    `</g>`,
  );
  let drawn = 0;
  c.series.forEach((s, k) => {
    const color = s.color ?? PALETTE[k % PALETTE.length]!;
    const pts = s.points.filter(([x, y]) => inside(x, y));
    drawn += s.hideInLegend ? 0 : pts.length;
    if (s.kind === "line") {
      if (pts.length < 2) return;
      const d = pts.map(([x, y], i) => `${i === 0 ? "M" : "L"}${f2(sx(x))} ${f2(sy(y))}`).join(" ");
      out.push(
        `<path class="series line" d="${d}" fill="none" stroke="${xmlEscape(color)}" stroke-width="${s.dashed ? 1 : 2}"${s.dashed ? ' stroke-dasharray="4 3"' : ""}><title>${xmlEscape(s.label)}</title></path>`,
      );
    } else {
      out.push(`<g class="series points" fill="${xmlEscape(color)}" fill-opacity="0.7"><title>${xmlEscape(s.label)}</title>`);
      for (const [x, y] of pts) out.push(`<circle cx="${f2(sx(x))}" cy="${f2(sy(y))}" r="2.5"/>`);
      out.push(`</g>`);
    }
  });
  if (drawn === 0 && c.emptyText) {
    out.push(`<text class="empty" x="${f2(m.l + pw / 2)}" y="${f2(m.t + ph / 2)}" text-anchor="middle" fill="#777777">${xmlEscape(c.emptyText)}</text>`);
  }
  if (legendWidth > 0) {
    out.push(`<g class="legend" font-size="10">`);
    legend.forEach(({ s, color }, i) => {
      const y = m.t + 8 + i * 13;
      const x = m.l + pw + 12;
      out.push(
        `<rect x="${x}" y="${y - 7}" width="9" height="9" fill="${xmlEscape(color)}"/>`,
        `<text x="${x + 13}" y="${y + 1}">${xmlEscape(shorten(s.label, 14))}</text>`,
      );
    });
    out.push(`</g>`);
  }
  out.push(`</svg>`);
  return out.join("\n");
}
