/**
 * The browser scripts of the pages, served at `/static/{name}` (routes/service.ts) with a long
 * cache and allowed by the pages' Content-Security-Policy (`script-src 'self'`: no inline script
 * runs). Pages work without them; a script only adds what needs one (live depiction, following a
 * task). Each script is plain ES2020 in a module of its own under html/scripts/, registered here.
 */
import { FORMS_SOURCE } from "./scripts/forms.ts";
import { DEPICT_LIVE } from "./scripts/depict-live.ts";

import { DELETE_SCRIPT } from "./scripts/delete.ts";

/** name → source; a page names the ones it uses in PageOptions.scripts. */
export const SCRIPTS: ReadonlyMap<string, string> = new Map<string, string>([
  ["forms.js", FORMS_SOURCE],
  ["depict-live.js", DEPICT_LIVE],
  ["delete.js", DELETE_SCRIPT],
]);

export function scriptUri(base: string, name: string): string {
  if (!SCRIPTS.has(name)) throw new Error(`no script ${name}`);
  return `${base}/static/${name}`;
}
