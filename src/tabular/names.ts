/**
 * Which column of an upload names its compounds (README "Compound names"): the first column
 * (other than the structure column) whose header's last word is "name" — `Name`, `name`,
 * `Compound name`, `Chemical_Name`, `TestSubstance_ChemicalName`, `IUPAC name` — with words split
 * at spaces, `_`, `-`, `.` and where a lower-case letter is followed by a capital. Not a name
 * column: `Names`, `Name ID`, `STRUCTURE_ChemicalName_IUPAC` (its last word is not "name").
 * An SD file's tags follow the same rule (a `<Name>` tag); its title lines are not read as names.
 *
 * The column stays a feature like every other; its values are also kept as the compound's
 * `rdfs:label` in the dataset (resources/dataset.ts), which the compound search looks names up by.
 */

/** The words of a header (see the module comment), lower case. */
export function headerWords(header: string): string[] {
  return header
    .trim()
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[\s_.\-]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** Is this header a name column's? */
export function isNameHeader(header: string): boolean {
  const words = headerWords(header);
  return words.length > 0 && words[words.length - 1] === "name";
}

/** The index (in `names`, the features' names in order) of the name column, or -1. */
export function nameColumn(names: readonly string[]): number {
  return names.findIndex(isNameHeader);
}
