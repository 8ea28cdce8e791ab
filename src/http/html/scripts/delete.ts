/**
 * The "Delete" forms of the pages (a dataset): an HTML form cannot send DELETE, so this script
 * does, after the person confirms. A form `<form data-delete="URI" data-next="URI"
 * data-confirm="question" hidden>` is shown (it is hidden without JavaScript; the page says how to
 * delete with curl instead); on submit the script asks, sends `DELETE URI` (with the form's API
 * token field as `Authorization: Bearer`, when tokens are on) and goes to `data-next`, or shows
 * the service's answer in the form's `<output>`.
 */
export const DELETE_SCRIPT = `"use strict";
for (const form of document.querySelectorAll("form[data-delete]")) {
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!window.confirm(form.dataset.confirm || "Delete?")) return;
    const headers = { Accept: "text/plain" };
    const token = form.querySelector('input[name="api_token"]');
    if (token && token.value) headers.Authorization = "Bearer " + token.value;
    const out = form.querySelector("output");
    try {
      const res = await fetch(form.dataset.delete, { method: "DELETE", headers });
      if (res.ok) {
        window.location.assign(form.dataset.next);
        return;
      }
      if (out) out.textContent = await res.text();
    } catch (e) {
      if (out) out.textContent = String(e);
    }
  });
}
`;
