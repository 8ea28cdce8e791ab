/** Where the shared reference data lives: `shared/data` beside the repository (SOURCES.md). */
export const DATA = new URL("../../../shared/data/", import.meta.url).pathname;
