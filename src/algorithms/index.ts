/** The algorithms served under /algorithm/{path} (routes/algorithms.ts loops over them), in the order listed. */
import type { Algorithm } from "./algorithm.ts";
import { allDescriptors } from "./descriptors/index.ts";
import { lazar } from "./lazar/index.ts";
import { bbrc, last } from "./mining/index.ts";
import { rfe } from "./rfe/index.ts";

export const ALGORITHMS: readonly Algorithm[] = [bbrc, last, allDescriptors, rfe, lazar];
