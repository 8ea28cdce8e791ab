/**
 * Security headers on every response (README "Access control" → "Security headers").
 *
 * - Every response: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
 *   `Referrer-Policy: no-referrer`, and a Content-Security-Policy.
 * - HTML pages: nothing but their own inline stylesheets (allowed by SHA-256 hash, so an injected
 *   `<style>` is refused), the service's own script files (`/static/…`; no inline or injected
 *   script runs), images (compound depictions), requests of those scripts and form posts to the
 *   service itself, no `<base>`, no framing.
 * - SVG documents (compound depictions; RDKit writes `style` attributes): inline styles only, no
 *   scripts, no loads, no framing.
 * - Everything else (RDF, CSV, JSON, text): no loads, no framing (`default-src 'none'`).
 */
import { createHash } from "node:crypto";
import type { Context, Next } from "koa";
import { REPORT_STYLE } from "../validate/index.ts";
import { PAGE_STYLE } from "./html/layout.ts";

/** The text of every `<style>` element in a piece of HTML (what a CSP hash covers). */
function styleTexts(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
}

/** Every inline stylesheet the service's pages carry: the page frame's and the report's. */
const INLINE_STYLES = [PAGE_STYLE, ...styleTexts(REPORT_STYLE)];

export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The Content-Security-Policy of the HTML pages of a service at `baseUrl`. */
export function htmlPolicy(baseUrl: string): string {
  const self = `'self' ${new URL(baseUrl).origin}`;
  return [
    "default-src 'none'",
    `style-src ${INLINE_STYLES.map(cspHash).join(" ")}`,
    `img-src ${self}`,
    `script-src ${self}`,
    `connect-src ${self}`,
    `form-action ${self}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
export const DEFAULT_POLICY = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaders(baseUrl: string) {
  const html = htmlPolicy(baseUrl);
  return async function setSecurityHeaders(ctx: Context, next: Next): Promise<void> {
    await next();
    const type = ctx.response.type;
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("X-Frame-Options", "DENY");
    ctx.set("Referrer-Policy", "no-referrer");
    ctx.set("Content-Security-Policy", type === "text/html" ? html : type === "image/svg+xml" ? SVG_POLICY : DEFAULT_POLICY);
  };
}
