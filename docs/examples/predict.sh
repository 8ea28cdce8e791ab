#!/usr/bin/env bash
# Upload a CSV, build a lazar model from it and predict one compound, with curl alone
# (README "A scripted example"). Prints the dataset, the model and the prediction dataset, then
# the prediction as CSV: prediction,confidence,reason.
#
#   B=http://localhost:8080 docs/examples/predict.sh hamster_carcinogenicity.csv 'c1ccccc1NN'
#
# With API tokens, set QSARGRAPH_TOKEN as well.
set -euo pipefail

B=${B:-http://localhost:8080}
csv=${1:?usage: predict.sh <file.csv> <SMILES>}
smiles=${2:?usage: predict.sh <file.csv> <SMILES>}
auth=()
if [ -n "${QSARGRAPH_TOKEN:-}" ]; then auth=(-H "Authorization: Bearer $QSARGRAPH_TOKEN"); fi

# A POST that answers a URI (text/uri-list). Its lines end with CRLF, as RFC 2483 says; $(…)
# keeps the CR, which would end up inside the next URL: tr -d '\r' strips it.
# --fail-with-body: an error answer (4xx, 5xx) stops the script and shows the service's message.
post() { curl -sS --fail-with-body ${auth[@]+"${auth[@]}"} -H 'Accept: text/uri-list' "$@" | tr -d '\r'; }

# Follow a task: 202 and the task URI while it is queued or running, 200 and the result URI once
# it completed, otherwise the error's status and its report.
wait_for() {
  local task=$1 out code body
  while :; do
    out=$(curl -sS ${auth[@]+"${auth[@]}"} -H 'Accept: text/uri-list' -w '\n%{http_code}' "$task" | tr -d '\r')
    code=${out##*$'\n'}
    body=${out%$'\n'*}
    case $code in
      202) sleep 1 ;;
      200) printf '%s\n' "$body"; return 0 ;;
      *) printf 'task %s ended with %s: %s\n' "$task" "$code" "$body" >&2; return 1 ;;
    esac
  done
}

task=$(post -F "file=@$csv" "$B/dataset")
dataset=$(wait_for "$task")
echo "dataset: $dataset"

task=$(post --data-urlencode "dataset_uri=$dataset" "$B/algorithm/lazar")
model=$(wait_for "$task")
echo "model: $model"

compound=$(post -H 'Content-Type: chemical/x-daylight-smiles' --data-binary "$smiles" "$B/compound")
prediction=$(post --data-urlencode "compound_uri=$compound" "$model")
echo "prediction dataset: $prediction"

# The prediction, read with SPARQL (CSV results; SPARQL's CSV ends lines with CRLF too).
query="PREFIX ot: <http://www.opentox.org/api/1.1#>
SELECT ?prediction ?confidence ?reason WHERE { GRAPH <$prediction> {
  <$prediction> ot:dataEntry ?entry .
  OPTIONAL { ?entry ot:values ?v . ?v ot:feature <$model/predicted/value> ; ot:value ?prediction }
  OPTIONAL { ?entry ot:values ?c . ?c ot:feature <$model/predicted/confidence> ; ot:value ?confidence }
  OPTIONAL { ?entry ?p ?reason . FILTER(STRENDS(STR(?p), \"/ontology#reason\")) }
} }"
curl -sS --fail-with-body ${auth[@]+"${auth[@]}"} -H 'Accept: text/csv' --data-urlencode "query=$query" "$B/sparql" | tr -d '\r'
