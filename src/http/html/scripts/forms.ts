/**
 * The forms script (`/static/forms.js`; html/algorithm.ts, html/crossvalidation-form.ts,
 * html/task.ts). Plain ES2020, no build step. The pages work without it; it adds:
 *
 * - in a parameters form (`form[data-form=params]`): the endpoint select shows only the features
 *   of the chosen dataset (its `optgroup[data-dataset]`), and a select and the "URI not listed"
 *   field of the same parameter clear each other, so that a submit never sends two values;
 * - on a task page (`#task[data-task]`): follows the task's `text/event-stream` (routes/tasks.ts:
 *   `progress` events, then one `status` event), moves the progress bar and the status, and when
 *   the task completes replaces the page by its result (`location.replace`: the back button
 *   returns to the form, not to the task); when it fails or is cancelled, reloads the page, which
 *   then shows the error report. A task that completed just before the page was served (within
 *   FORWARD_MS) forwards at once. Shows the cancel button and sends its DELETE (with the form's
 *   API token as a Bearer header when the page has one). If the stream fails, the page reloads
 *   every 2 s as it does without scripts.
 */
export const FORMS_SOURCE = `"use strict";
(function () {
  var FORWARD_MS = 10000;

  function byName(form, name) {
    return Array.prototype.filter.call(form.elements, function (e) { return e.name === name; });
  }

  function setUpForm(form) {
    // a select and the text field of the same name clear each other
    Array.prototype.forEach.call(form.querySelectorAll("select[data-role]"), function (select) {
      byName(form, select.name).forEach(function (other) {
        if (other === select || other.tagName !== "INPUT") return;
        select.addEventListener("change", function () { if (select.value !== "") other.value = ""; });
        other.addEventListener("input", function () { if (other.value.trim() !== "") select.value = ""; });
      });
    });
    var feature = form.querySelector("select[data-role=feature]");
    if (!feature) return;
    var datasetFields = byName(form, "dataset_uri");
    function chosenDataset() {
      for (var i = 0; i < datasetFields.length; i++) {
        var v = (datasetFields[i].value || "").trim();
        if (v !== "") return v;
      }
      return "";
    }
    function filter() {
      var chosen = chosenDataset();
      var groups = feature.querySelectorAll("optgroup[data-dataset]");
      var shown = 0;
      Array.prototype.forEach.call(groups, function (g) {
        var show = chosen === "" || g.getAttribute("data-dataset") === chosen;
        g.hidden = !show;
        g.disabled = !show;
        if (show) shown++;
      });
      var selected = feature.selectedOptions && feature.selectedOptions[0];
      if (selected && selected.parentElement && selected.parentElement.disabled) feature.value = "";
      // a dataset not listed: every group stays available
      if (shown === 0) Array.prototype.forEach.call(groups, function (g) { g.hidden = false; g.disabled = false; });
    }
    datasetFields.forEach(function (f) {
      f.addEventListener("change", filter);
      f.addEventListener("input", filter);
    });
    filter();
  }

  function setUpTask(el) {
    var uri = el.getAttribute("data-task");
    var status = el.getAttribute("data-status");
    var result = el.getAttribute("data-result");
    var ago = Number(el.getAttribute("data-finished-ago-ms"));
    if (status === "Completed" && result && ago >= 0 && ago < FORWARD_MS) {
      location.replace(result);
      return;
    }
    if (status === "Completed" || status === "Error" || status === "Cancelled") return;
    var bar = document.getElementById("task-progress");
    var statusOut = document.getElementById("task-status");
    var percentOut = document.getElementById("task-percent");
    function show(t) {
      var pct = Number(t.percentageCompleted) || 0;
      if (bar) { bar.value = pct; bar.textContent = pct.toFixed(1) + " %"; }
      if (percentOut) percentOut.textContent = pct.toFixed(1) + " %";
      if (statusOut) statusOut.textContent = String(t.status);
    }
    // the cancel's DELETE, if one was sent: the page leaves only once it is answered
    var pending = null;
    var cancel = document.getElementById("task-cancel");
    if (cancel) {
      cancel.hidden = false;
      cancel.addEventListener("submit", function (e) {
        e.preventDefault();
        var headers = { Accept: "text/uri-list" };
        var token = cancel.querySelector("input[name=api_token]");
        if (token && token.value) headers.Authorization = "Bearer " + token.value;
        var button = cancel.querySelector("button");
        if (button) button.disabled = true;
        pending = fetch(uri, { method: "DELETE", headers: headers }).then(function (r) {
          // the body is read to its end: a page left while it loads would abort the request
          return r.text().then(function (text) {
            if (r.ok) return;
            if (button) button.disabled = false;
            if (statusOut) statusOut.textContent = "cancel refused: " + text.trim();
          });
        }, function () { if (button) button.disabled = false; });
      });
    }
    var done = false;
    var source = new EventSource(uri);
    function end(t) {
      done = true;
      source.close();
      show(t);
      (pending || Promise.resolve()).then(function () {
        if (t.status === "Completed" && t.resultURI) location.replace(t.resultURI);
        else location.reload();
      });
    }
    source.addEventListener("progress", function (e) { show(JSON.parse(e.data)); });
    source.addEventListener("status", function (e) { end(JSON.parse(e.data)); });
    source.onerror = function () {
      if (done) return;
      source.close();
      setTimeout(function () { location.reload(); }, 2000);
    };
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-form=params]"), setUpForm);
    var task = document.getElementById("task");
    if (task && task.getAttribute("data-task")) setUpTask(task);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
`;
