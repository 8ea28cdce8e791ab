/** Uploading a dataset (`POST /dataset`): a CSV or SDF file becomes a dataset, as a task. */
import type { Services } from "../algorithm.ts";
import { UnsupportedMediaType } from "../../errors.ts";
import type { TaskState } from "../../resources/task.ts";
import type { UploadLimits } from "../../resources/upload-limits.ts";
import { detectFormat, SUPPORTED_FORMATS, type UploadFormat } from "../../tabular/format.ts";
import { newId } from "../../resources/uris.ts";
import { uploadOperation } from "./operation.ts";

/**
 * Start the upload of `file` (its bytes, name and format), checked against `limits` once parsed.
 * Without a format it is detected from the bytes and the name (tabular/format.ts; 415 for a
 * format that is neither CSV nor SDF), as the HTTP intake does.
 */
export async function submitUpload(file: { readonly bytes: Uint8Array; readonly fileName: string; readonly format?: UploadFormat }, limits: UploadLimits, { store, uris, vocab, tasks }: Services): Promise<TaskState> {
  let format = file.format;
  if (format === undefined) {
    const detected = detectFormat(file.bytes, file.fileName);
    if ("unsupported" in detected) throw new UnsupportedMediaType(`${file.fileName} is ${detected.unsupported}; an upload is ${SUPPORTED_FORMATS}`, { field: "file" });
    format = detected.format;
  }
  const op = uploadOperation(store, { bytes: file.bytes, fileName: file.fileName, format, datasetUri: uris.dataset(newId()), base: vocab.base, limits });
  return tasks.submit(`Upload ${file.fileName}`, "dataset upload", op);
}
