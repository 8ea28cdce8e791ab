/**
 * Algorithm parameters checked against the algorithm's `AlgorithmSpec` (resources/algorithm.ts),
 * the same spec its GET describes, so description and validation cannot disagree.
 *
 * Every problem is reported at once: one 400 whose causes name each parameter at fault
 * (`field`), including unknown names (typos must not be silently ignored) and a parameter given
 * twice with different values. An empty value is no value: the default applies (HTML forms send
 * their empty fields), or a required parameter is missing.
 */
import { BadRequest } from "../errors.ts";
import type { AlgorithmSpec, ParamSpec } from "./algorithm.ts";
import { parseNumber } from "../tabular/typing.ts";

/** A minimum support: absolute, or per mil of the number of compounds (per cent × 10). */
export type Frequency = { readonly absolute: number } | { readonly perMil: number };

export type ParamValue = string | number | boolean | Frequency | readonly string[];

/** Values of a request's parameters, typed by the spec, defaults filled in. */
export class Params {
  constructor(
    private readonly values: ReadonlyMap<string, ParamValue>,
    /** The value of every parameter as written (given or default), in the spec's order. */
    readonly written: readonly (readonly [string, string])[],
  ) {}

  private get(name: string): ParamValue | undefined {
    return this.values.get(name);
  }

  string(name: string): string | undefined {
    const v = this.get(name);
    if (v !== undefined && typeof v !== "string") throw new Error(`parameter ${name} is not a string`);
    return v;
  }

  number(name: string): number | undefined {
    const v = this.get(name);
    if (v !== undefined && typeof v !== "number") throw new Error(`parameter ${name} is not a number`);
    return v;
  }

  boolean(name: string): boolean | undefined {
    const v = this.get(name);
    if (v !== undefined && typeof v !== "boolean") throw new Error(`parameter ${name} is not a boolean`);
    return v;
  }

  frequency(name: string): Frequency | undefined {
    const v = this.get(name);
    if (v !== undefined && (typeof v !== "object" || Array.isArray(v))) throw new Error(`parameter ${name} is not a frequency`);
    return v as Frequency | undefined;
  }

  list(name: string): readonly string[] | undefined {
    const v = this.get(name);
    if (v !== undefined && !Array.isArray(v)) throw new Error(`parameter ${name} is not a list`);
    return v as readonly string[] | undefined;
  }
}

/**
 * The absolute minimum support for `n` compounds: a share becomes a count as lazar made it,
 * max(2, floor(‰ · N / 1000)).
 */
export function absoluteFrequency(f: Frequency, n: number): number {
  return "absolute" in f ? f.absolute : Math.max(2, Math.floor((f.perMil * n) / 1000));
}

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

type Parsed = { readonly ok: true; readonly value: ParamValue } | { readonly ok: false; readonly problem: string };

const ok = (value: ParamValue): Parsed => ({ ok: true, value });
const bad = (problem: string): Parsed => ({ ok: false, problem });

/** One parameter's value, or what is wrong with it. */
function parseOne(p: ParamSpec, text: string): Parsed {
  const k = p.kind;
  switch (k.type) {
    case "dataset":
    case "feature":
      return /^https?:\/\/\S+$/.test(text) ? ok(text) : bad(`must be a URI of this service (got '${text}')`);
    case "boolean": {
      const t = text.toLowerCase();
      return TRUE.has(t) ? ok(true) : FALSE.has(t) ? ok(false) : bad(`must be true or false (got '${text}')`);
    }
    case "integer":
      return /^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? inRange(Number(text), k.min, k.max, text) : bad(`must be an integer${k.min !== undefined && k.max !== undefined ? ` from ${k.min} to ${k.max}` : ""} (got '${text}')`);
    case "number": {
      const n = parseNumber(text);
      return n === null ? bad(`must be a number (got '${text}')`) : inRange(n, k.min, k.max, text);
    }
    case "text":
      return ok(text);
    case "enum":
      return k.values.includes(text) ? ok(text) : bad(`must be one of ${k.values.join(", ")} (got '${text}')`);
    case "list": {
      const items = [...new Set(text.split(",").map((x) => x.trim()).filter(Boolean))];
      const wrong = items.filter((x) => !k.values.includes(x));
      if (items.length === 0) return bad(`must name at least one of ${k.values.join(", ")}`);
      return wrong.length === 0 ? ok(items) : bad(`has ${wrong.map((w) => `'${w}'`).join(", ")}; valid values are ${k.values.join(", ")}`);
    }
    case "frequency": {
      const m = /^(\d+(?:\.\d+)?)(pc|pm)?$/.exec(text);
      if (!m) return bad(`must be a count (5), a per cent (2pc) or a per mil (5pm) value (got '${text}')`);
      const x = Number(m[1]);
      if (m[2] === undefined) {
        return Number.isSafeInteger(x) && x >= 1 ? ok({ absolute: x }) : bad(`as a count must be a whole number ≥ 1 and at most ${Number.MAX_SAFE_INTEGER} (got '${text}')`);
      }
      const perMil = m[2] === "pc" ? x * 10 : x;
      return perMil > 0 && perMil <= 1000 ? ok({ perMil }) : bad(`must be more than 0 and at most 100 % (got '${text}')`);
    }
  }
}

function inRange(n: number, min: number | undefined, max: number | undefined, text: string): Parsed {
  if (min !== undefined && n < min) return bad(`must be at least ${min} (got '${text}')`);
  if (max !== undefined && n > max) return bad(`must be at most ${max} (got '${text}')`);
  return ok(n);
}

/** Check the raw parameters against the spec; defaults fill what is absent. */
export function parseParams(spec: AlgorithmSpec, raw: ReadonlyMap<string, readonly string[]>): Params {
  const causes: BadRequest[] = [];
  const known = new Map(spec.parameters.map((p) => [p.name, p]));
  for (const name of raw.keys()) {
    if (!known.has(name)) causes.push(new BadRequest(`unknown parameter '${name}'; ${spec.title} takes ${spec.parameters.map((p) => p.name).join(", ")}`, { field: name }));
  }
  const values = new Map<string, ParamValue>();
  const written: [string, string][] = [];
  for (const p of spec.parameters) {
    // An empty value is no value (HTML forms send every field): the default applies.
    const given = [...new Set((raw.get(p.name) ?? []).map((v) => v.trim()).filter((v) => v !== ""))];
    if (given.length > 1) {
      causes.push(new BadRequest(`parameter '${p.name}' is given ${given.length} times with different values`, { field: p.name }));
      continue;
    }
    const text = given[0] ?? p.default;
    if (text === "" && p.kind.type === "text" && !p.required) {
      values.set(p.name, "");
      written.push([p.name, ""]);
      continue;
    }
    if (text === undefined || text === "") {
      if (p.required) causes.push(new BadRequest(`parameter '${p.name}' is required: ${p.description}`, { field: p.name }));
      continue;
    }
    const v = parseOne(p, text);
    if (!v.ok) {
      causes.push(new BadRequest(`parameter '${p.name}' ${v.problem}`, { field: p.name }));
      continue;
    }
    values.set(p.name, v.value);
    written.push([p.name, text]);
  }
  if (causes.length === 1) throw causes[0]!;
  if (causes.length > 1) throw new BadRequest(`${causes.length} parameters are wrong: ${causes.map((c) => c.message).join("; ")}`, { causes, field: causes[0]!.details.field! });
  return new Params(values, written);
}
