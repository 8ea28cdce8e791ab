/**
 * HTML of an algorithm — a form that runs it, generated from its AlgorithmSpec, and its
 * parameters — and of the list of physico-chemical descriptors; the widgets of those forms, which
 * the cross-validation form (html/crossvalidation-form.ts) shares (docs/opentox-api.md "Forms").
 *
 * One widget per parameter kind: a dataset → a select of the service's newest datasets (title,
 * size, date) plus a text field for a URI not listed; the endpoint (`prediction_feature`) → a
 * select of the uploaded datasets' features grouped by dataset (the forms script shows only the
 * chosen dataset's); a URI with known choices (a feature generator, the algorithm to validate) →
 * a select; an enum or a boolean → a select whose first option, "default", sends nothing; numbers →
 * number fields with their bounds; text, lists and frequencies → text fields. Every optional field
 * starts empty and an empty field means the default (the server treats an empty value as absent),
 * so a form submitted with only its required fields asks for the defaults. The description is
 * the field's help text (`aria-describedby`); required fields say so. Values given in the page's
 * query string are filled in (`/algorithm/qsar?dataset_uri=…`).
 */
import type { AlgorithmSpec, ParamSpec } from "../../resources/algorithm.ts";
import type { DatasetChoice, DatasetChoices } from "../../resources/form-choices.ts";
import { DESCRIPTORS } from "../../chem/descriptors/index.ts";
import { esc, link, page } from "./layout.ts";

/** The name of the pages' forms script (html/scripts/forms.ts). */
export const FORMS_SCRIPT = "forms.js";

/** How many datasets a form's selects offer (the newest), and features per dataset. */
export const FORM_DATASETS = 200;
export const FORM_FEATURES = 30;

/** A URI a select offers, with its label. */
export interface UriChoice {
  readonly uri: string;
  readonly label: string;
}

/** What a form's widgets offer and what they are filled with. */
export interface FormContext {
  /** The newest datasets (resources/form-choices.ts). */
  readonly datasets: DatasetChoices;
  /** URI-valued parameters offered as a list of choices, by name (e.g. feature_generation_uri). */
  readonly uriChoices?: Readonly<Record<string, readonly UriChoice[]>>;
  /** Values to fill in, by parameter name (the page's query string). */
  readonly prefill?: ReadonlyMap<string, string>;
}

/** The values of a query string to fill a form with: the first non-empty value of each name. */
export function prefillOf(query: Record<string, string | string[] | undefined>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(query)) {
    const first = (Array.isArray(v) ? v : [v]).find((x) => typeof x === "string" && x.trim() !== "");
    if (first !== undefined) out.set(k, first.trim());
  }
  return out;
}

const option = (value: string, label: string, selected: boolean): string => `<option value="${esc(value)}"${selected ? " selected" : ""}>${esc(label)}</option>`;

/** A dataset's label in a select: title, size, date. */
export function datasetLabel(d: DatasetChoice): string {
  const size = `${d.compounds} compound${d.compounds === 1 ? "" : "s"}`;
  return `${d.title || d.uri} — ${size}${d.created ? `, ${d.created.slice(0, 10)}` : ""}`;
}

/** The help text of a parameter: its description, default and the form of its value. */
export function helpText(p: ParamSpec): string {
  const parts = [p.description.replace(/\s*$/, "")];
  const k = p.kind;
  if (k.type === "list") parts.push(`One or more of ${k.values.join(", ")}, separated by commas.`);
  if (k.type === "frequency") parts.push("A count (5), per cent (2pc) or per mil (5pm).");
  if ((k.type === "integer" || k.type === "number") && (k.min !== undefined || k.max !== undefined)) parts.push(`From ${k.min ?? "−∞"} to ${k.max ?? "∞"}.`);
  parts.push(p.required ? "Required." : p.default !== undefined && p.default !== "" ? `Empty: the default, ${p.default}.` : "Empty: the default.");
  return parts.map((x) => (/[.!?]$/.test(x) ? x : `${x}.`)).join(" ");
}

/** A select of URIs with a text field for one not listed; both carry the parameter's name (the server refuses two different values). */
function uriSelect(p: ParamSpec, id: string, help: string, groups: readonly { readonly label: string; readonly attrs?: string; readonly choices: readonly UriChoice[] }[], given: string | undefined, role: string, what: string): string {
  const listed = groups.some((g) => g.choices.some((c) => c.uri === given));
  const first = p.required ? `— choose ${what} —` : p.default ? `default (${p.default})` : "none: the default";
  const options = [option("", first, !listed)];
  for (const g of groups) {
    if (g.choices.length === 0) continue;
    options.push(`<optgroup label="${esc(g.label)}"${g.attrs ?? ""}>${g.choices.map((c) => option(c.uri, c.label, c.uri === given)).join("")}</optgroup>`);
  }
  const other = given !== undefined && !listed ? given : "";
  const required = p.required ? ` aria-required="true"` : "";
  return (
    `<select id="${id}" name="${esc(p.name)}" data-role="${role}" aria-describedby="${id}-help"${required}>${options.join("")}</select>` +
    `<br><label for="${id}-other">or a URI not listed</label> <input id="${id}-other" name="${esc(p.name)}" type="url" size="60" value="${esc(other)}" aria-describedby="${id}-help">`
  );
}

/** The widget of one parameter (without its label). */
export function paramWidget(p: ParamSpec, ctx: FormContext, id: string): string {
  const given = ctx.prefill?.get(p.name);
  const help = `${id}-help`;
  const describedBy = ` aria-describedby="${help}"`;
  const required = p.required ? " required" : "";
  const k = p.kind;
  const choices = ctx.uriChoices?.[p.name];
  if (choices) {
    // a URI with known choices (the algorithm to validate, a feature generator): one select
    const listed = choices.some((c) => c.uri === given);
    const options = [...(p.required ? [] : [option("", p.default ? `default (${p.default})` : "default", !listed)]), ...choices.map((c) => option(c.uri, c.label, c.uri === given))];
    if (given !== undefined && !listed) options.push(option(given, given, true));
    return `<select id="${id}" name="${esc(p.name)}"${describedBy}${required}>${options.join("")}</select>`;
  }
  if (k.type === "dataset") {
    const uploaded = ctx.datasets.datasets.filter((d) => !d.computed);
    const computed = ctx.datasets.datasets.filter((d) => d.computed);
    const toChoice = (d: DatasetChoice): UriChoice => ({ uri: d.uri, label: datasetLabel(d) });
    const more = ctx.datasets.total > ctx.datasets.datasets.length ? ` (the ${ctx.datasets.datasets.length} newest of ${ctx.datasets.total})` : "";
    return uriSelect(p, id, help, [{ label: `Uploaded datasets${more}`, choices: uploaded.map(toChoice) }, { label: `Computed by the service${more}`, choices: computed.map(toChoice) }], given, "dataset", "a dataset");
  }
  if (k.type === "feature" && p.name === "prediction_feature") {
    // grouped by dataset; the forms script shows the chosen dataset's group only
    const groups = ctx.datasets.datasets
      .filter((d) => d.features.length > 0)
      .map((d) => ({ label: d.title || d.uri, attrs: ` data-dataset="${esc(d.uri)}"`, choices: d.features.map((f) => ({ uri: f.uri, label: f.title || f.uri })) }));
    return uriSelect({ ...p, default: p.default ?? "the dataset's only feature" }, id, help, groups, given, "feature", "a feature");
  }
  if (k.type === "boolean" || k.type === "enum") {
    const values = k.type === "boolean" ? ["true", "false"] : k.values;
    const listed = given !== undefined && values.includes(given);
    const first = p.required ? [] : [option("", p.default !== undefined ? `default (${p.default})` : "default", !listed)];
    const options = values.map((x) => option(x, x === p.default ? `${x} (default)` : x, x === given));
    return `<select id="${id}" name="${esc(p.name)}"${describedBy}${required}>${[...first, ...options].join("")}</select>`;
  }
  const value = given !== undefined ? ` value="${esc(given)}"` : "";
  const placeholder = p.default !== undefined && p.default !== "" ? ` placeholder="${esc(p.default)}"` : "";
  if (k.type === "integer" || k.type === "number") {
    const bounds = `${k.min !== undefined ? ` min="${k.min}"` : ""}${k.max !== undefined ? ` max="${k.max}"` : ""} step="${k.type === "integer" ? "1" : "any"}"`;
    return `<input id="${id}" name="${esc(p.name)}" type="number"${bounds}${value}${placeholder}${describedBy}${required}>`;
  }
  const pattern = k.type === "frequency" ? ` pattern="\\d+(\\.\\d+)?(pc|pm)?"` : "";
  const type = k.type === "feature" ? "url" : "text";
  return `<input id="${id}" name="${esc(p.name)}" type="${type}" size="60"${pattern}${value}${placeholder}${describedBy}${required}>`;
}

/** One parameter as a row of a form's table: label (marked when required), widget, help text. */
export function paramRow(p: ParamSpec, ctx: FormContext, idPrefix = "p-"): string {
  const id = `${idPrefix}${p.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return `<tr><th><label for="${id}">${esc(p.name)}</label>${p.required ? ` <span class="required">(required)</span>` : ""}</th><td>${paramWidget(p, ctx, id)}<br><small id="${id}-help">${esc(helpText(p))}</small></td></tr>`;
}

/**
 * A form of a spec's parameters posting to `action`: the required ones and the endpoint first,
 * the other optional ones folded (`<details>`: empty means the default) unless one is filled in
 * or `fold` is false.
 */
export function paramsForm(parameters: readonly ParamSpec[], action: string, ctx: FormContext, submit: string, idPrefix = "p-", fold = true): string {
  const first = parameters.filter((p) => !fold || p.required || p.name === "prediction_feature");
  const rest = parameters.filter((p) => !first.includes(p));
  const open = rest.some((p) => ctx.prefill?.has(p.name)) ? " open" : "";
  const more = rest.length === 0 ? "" : `<details${open}><summary>Optional parameters (${rest.length}; empty fields take the default)</summary><table>${rest.map((p) => paramRow(p, ctx, idPrefix)).join("")}</table></details>`;
  return `<form method="post" action="${esc(action)}" class="params" data-form="params"><table>${first.map((p) => paramRow(p, ctx, idPrefix)).join("")}</table>${more}<p><button type="submit">${esc(submit)}</button></p></form>`;
}

export function algorithmHtml(spec: AlgorithmSpec, uri: string, base: string, ctx: FormContext): string {
  const rows = spec.parameters
    .map((p) => {
      const kind = p.kind.type === "enum" || p.kind.type === "list" ? `${p.kind.type === "enum" ? "one" : "some"} of ${p.kind.values.join(", ")}` : p.kind.type;
      return `<tr><td><code>${esc(p.name)}</code></td><td>${p.required ? "required" : "optional"}</td><td>${esc(kind)}</td><td>${esc(p.default ?? "")}</td><td>${esc(p.description)}</td></tr>`;
    })
    .join("");
  const aliases = spec.aliases.length > 0 ? `<p>Also at ${spec.aliases.map((a) => link(`${base}/algorithm/${a}`)).join(", ")}.</p>` : "";
  const empty = ctx.datasets.total === 0 && spec.parameters.some((p) => p.required && p.kind.type === "dataset") ? `<p>There is no dataset yet: ${link(`${base}/dataset`, "upload one")} first.</p>` : "";
  return page(
    spec.title,
    `<p>${esc(spec.description)}</p>${aliases}
<h2>Run</h2>${empty}${paramsForm(spec.parameters, uri, ctx, `Run ${spec.title}`)}
<h2>Parameters</h2><table><tr><th>name</th><th>scope</th><th>type</th><th>default</th><th>description</th></tr>${rows}</table>`,
    { base, self: uri, formats: ["ttl", "json", "rdf"], scripts: [FORMS_SCRIPT] },
  );
}

export function pcListHtml(base: string): string {
  const rows = DESCRIPTORS.map((d) => `<tr><td>${esc(d.id)}</td><td>${esc(d.title)}</td><td>${esc(d.pcType)}</td><td>${esc(d.lib)}</td><td class="mono">${esc(d.values.join(" "))}</td></tr>`).join("");
  return page(
    "Physico-chemical descriptors",
    `<p>Run them with ${link(`${base}/algorithm/pc/AllDescriptors`)} (a dataset), <code>POST /dataset/{id}/pc</code> or <code>POST /compound/{InChI}/pc</code>.</p><table><tr><th>descriptor</th><th>name</th><th>pc_type</th><th>lib</th><th>values</th></tr>${rows}</table>`,
    { base, self: `${base}/algorithm/pc`, formats: ["ttl", "uri"] },
  );
}
