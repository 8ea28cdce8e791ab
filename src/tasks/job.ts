/** What a job running in a worker thread may do besides computing: report progress. */
export interface JobContext {
  /** Progress of this job in [0, 1]. */
  progress(fraction: number): void;
}
