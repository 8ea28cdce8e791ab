/** Uploading a dataset (`POST /dataset`): a CSV or SDF file becomes a dataset, as a task. */
import type { Services } from "../algorithm.ts";
import type { TaskState } from "../../resources/task.ts";
import type { UploadLimits } from "../../resources/upload-limits.ts";
import { newId } from "../../resources/uris.ts";
import { uploadOperation } from "./operation.ts";

/** Start the upload of `file` (its bytes and name), checked against `limits` once parsed. */
export async function submitUpload(file: { readonly bytes: Uint8Array; readonly fileName: string }, limits: UploadLimits, { store, uris, vocab, tasks }: Services): Promise<TaskState> {
  const op = uploadOperation(store, { bytes: file.bytes, fileName: file.fileName, datasetUri: uris.dataset(newId()), base: vocab.base, limits });
  return tasks.submit(`Upload ${file.fileName}`, "dataset upload", op);
}
