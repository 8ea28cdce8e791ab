/**
 * A SMARTS matcher for the substructure features the miners write (src/mining/: BBRC's and
 * LAST-PM's SMARTS), working on molecules encoded exactly as the miners encode them
 * (../labelled-graph.ts), so that a pattern's matches on the training compounds are its mined
 * occurrences and the models get the same feature values for query compounds.
 *
 * parse.ts: SMARTS text → compiled query, and the supported subset; query.ts: the compiled
 * query; labels.ts: the label alphabet and the hashed summaries used by the prefilters;
 * target.ts: molecules prepared for matching; search.ts: matching and counting embeddings;
 * query-set.ts: many queries against one molecule; embeddings.ts: listing the embeddings
 * (tests only, not exported here).
 */

export { compileSmarts, SmartsSyntaxError } from "./parse.ts";
export { SmartsQuery } from "./query.ts";
export { MolTarget, moleculeFromSmiles, prepareMolecule } from "./target.ts";
export { countEmbeddings, matches } from "./search.ts";
export { QuerySet } from "./query-set.ts";
