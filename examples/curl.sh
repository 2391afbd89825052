#!/usr/bin/env bash
# A partner's integration with nothing but curl (and node for JSON, openssl for the signature):
# create an app and register a webhook (operator, with the CLI), get a token, submit an application,
# poll its status, receive and verify the `application.submitted` webhook, cancel, receive and
# verify `application.cancelled`, and list the events to reconcile.
#
# From the checkout, with the service running and allowed to deliver to this machine:
#   WEBHOOK_ALLOW_PRIVATE=true npm start      # terminal 1
#   bash examples/curl.sh                     # terminal 2
# Environment: BASE (default http://localhost:8080); the operator steps run the CLI
# (CARDAPPLY, default `npx cardapply`) on the service's store, so give them the same DATA_DIR or
# DATABASE_URL as the service, as the admin named in CARDAPPLY_OPERATOR (a store's first admin:
# `npx cardapply operators create --username ada --role admin`).
set -euo pipefail

BASE=${BASE:-http://localhost:8080}
CARDAPPLY=${CARDAPPLY:-npx cardapply}
WORK=$(mktemp -d)
RECEIVER=
trap '[ -n "$RECEIVER" ] && kill "$RECEIVER" 2>/dev/null; rm -rf "$WORK"' EXIT

json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(eval("JSON.parse(s)"+process.argv[1])))' "$1"; }
now() { date +%s; }
uuid() { node -e 'console.log(crypto.randomUUID())'; }
wait_for() { # wait_for FILE WHAT: up to 30 s
  for _ in $(seq 1 300); do [ -e "$1" ] && return 0; sleep 0.1; done
  echo "timed out waiting for $2" >&2
  exit 1
}

# 1. A tiny webhook receiver on a free loopback port. It keeps each delivery's raw body and headers
#    (the signature covers the raw bytes: never verify a body that was parsed and serialised again).
node -e '
  const fs = require("fs"), dir = process.argv[1];
  let n = 0;
  require("http").createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c)).on("end", () => {
      const file = `${dir}/hook-${++n}`;
      fs.writeFileSync(`${file}.body`, Buffer.concat(chunks));
      fs.writeFileSync(`${file}.headers`, JSON.stringify(req.headers));
      fs.writeFileSync(`${file}.done`, "");
      res.writeHead(204).end();
    });
  }).listen(0, "127.0.0.1", function () { fs.writeFileSync(`${dir}/port`, String(this.address().port)); });
' "$WORK" &
RECEIVER=$!
wait_for "$WORK/port" 'the receiver'
HOOK_URL="http://127.0.0.1:$(cat "$WORK/port")/hooks"

# 2. Operator: an app (its secret is shown this once) and a webhook endpoint for it (its signing
#    secret too). A loopback URL is refused unless WEBHOOK_ALLOW_PRIVATE=true, here and in the service.
$CARDAPPLY apps create --name "curl example" --json > "$WORK/app.json"
APP_ID=$(json .app_id < "$WORK/app.json")
APP_SECRET=$(json .app_secret < "$WORK/app.json")
WEBHOOK_ALLOW_PRIVATE=true $CARDAPPLY webhooks add --app "$APP_ID" --url "$HOOK_URL" --json > "$WORK/endpoint.json"
WEBHOOK_SECRET=$(json .secret < "$WORK/endpoint.json")
echo "app $APP_ID, webhooks to $HOOK_URL"

# 3. The partner exchanges its secret for an access token (valid expires_in seconds).
TOKEN=$(curl -sS "$BASE/mc-platformapi/v1/open/auth/token" -H 'content-type: application/json' \
  -d "{\"app_id\":\"$APP_ID\",\"app_secret\":\"$APP_SECRET\",\"timestamp\":$(now)}" | json .data.access_token)

call() { # call PATH BODY [IDEMPOTENCY_KEY]: POST with the token; prints the envelope
  curl -sS "$BASE/mc-platformapi/v1/open$1" -H 'content-type: application/json' \
    -H "Authorization: Bearer $TOKEN" ${3:+-H "Idempotency-Key: $3"} -d "$2"
}

# 4. A mainland identity number for this run (GB 11643 check digit), so that the example can run
#    again: an applicant may have one active application at a time.
ID17="44030519900307$(printf '%03d' $((RANDOM % 500 * 2 + 1)))"
WEIGHTS=(7 9 10 5 8 4 2 1 6 3 7 9 10 5 8 4 2)
SUM=0
for i in $(seq 0 16); do SUM=$((SUM + ${ID17:$i:1} * WEIGHTS[i])); done
CHECK=10X98765432
CERT_ID="$ID17${CHECK:$((SUM % 11)):1}"
# pay_pwd is the MD5 digest of the payment password, never the password itself.
PAY_PWD=$(printf %s '704193' | openssl dgst -md5 -r | cut -d' ' -f1)

# 5. Submit, with an Idempotency-Key: if the answer is lost, send the same request with the same key
#    again and the first answer comes back, not a second application.
SUBMIT_KEY=$(uuid)
call /et/vs/card/apply "$(cat <<JSON
{
  "app_id": "$APP_ID", "timestamp": $(now),
  "address": "广东省-深圳市-南山区-科技园路1号", "birthday": "1990-03-07", "sex": "M",
  "cert_type": "00", "cert_id": "$CERT_ID", "country": "CN",
  "id_card_img": "https://img.example.com/a/id-front.jpg", "id_card_back_img": "https://img.example.com/a/id-back.jpg",
  "cert_start_date": "2015-06-01", "cert_end_date": "2045-06-01",
  "passport_img": "https://img.example.com/a/passport.jpg",
  "email": "li.lei@example.com", "mob_no": "13800138000", "mob_no_of": "+86",
  "name": "李雷", "name_en": "LI LEI",
  "company_name": "深圳市示例科技有限公司", "office_address": "广东省-深圳市-南山区-科技园路2号",
  "office_tel_no": "75586000000", "office_tel_no_of": "+86", "position": "04",
  "pay_pwd": "$PAY_PWD", "profession": "I", "purpose": ["01", "04"],
  "sign_applicant": "https://img.example.com/a/sign.png", "wealth_source": ["01"],
  "yearly_income": "200000", "years_of_service": "5",
  "consignee": "李雷", "consignee_mob_no": "13800138000", "consignee_mob_no_of": "+86",
  "consignee_address": "广东省-深圳市-南山区-科技园路1号",
  "pay_voucher": "https://img.example.com/a/voucher.jpg"
}
JSON
)" "$SUBMIT_KEY" > "$WORK/submitted.json"
[ "$(json .code < "$WORK/submitted.json")" = 0 ] || { cat "$WORK/submitted.json" >&2; exit 1; }
SERIAL=$(json .data.busi_water_no < "$WORK/submitted.json")
echo "submitted $SERIAL"

poll_status() { # poll_status EXPECTED: query until the application is in that state (up to 30 s)
  for _ in $(seq 1 30); do
    STATUS=$(call /et/vs/card/apply/query "{\"app_id\":\"$APP_ID\",\"timestamp\":$(now),\"busi_water_no\":\"$SERIAL\"}" |
      json .data.status)
    echo "status: $STATUS"
    [ "$STATUS" = "$1" ] && return 0
    sleep 1
  done
  exit 1
}

verify_webhook() { # verify_webhook N TYPE: the N-th delivery is TYPE, for SERIAL, correctly signed
  wait_for "$WORK/hook-$1.done" "webhook $1"
  local headers="$WORK/hook-$1.headers" body="$WORK/hook-$1.body"
  local id ts signatures key expected
  id=$(json '["webhook-id"]' < "$headers")
  ts=$(json '["webhook-timestamp"]' < "$headers")
  signatures=$(json '["webhook-signature"]' < "$headers")
  # Refuse old messages (replays): more than 5 minutes from our clock.
  (( ${ts} > $(now) - 300 && ${ts} < $(now) + 300 )) || { echo "webhook $id: stale timestamp" >&2; exit 1; }
  # v1 signature: base64 HMAC-SHA256 of "id.timestamp.body", keyed with the base64-decoded secret.
  key=$(printf %s "${WEBHOOK_SECRET#whsec_}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
  expected="v1,$({ printf '%s.%s.' "$id" "$ts"; cat "$body"; } |
    openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary | base64)"
  case " $signatures " in
    *" $expected "*) ;;
    *) echo "webhook $id: signature mismatch" >&2; exit 1 ;;
  esac
  [ "$(json .type < "$body")" = "$2" ] && [ "$(json .data.busi_water_no < "$body")" = "$SERIAL" ] ||
    { echo "webhook $id: unexpected body $(cat "$body")" >&2; exit 1; }
  echo "webhook $2 ($id): signature verified"
}

# 6. Poll the status; the webhook says the same without polling.
poll_status SUBMITTED
verify_webhook 1 application.submitted

# 7. Cancel (also with an Idempotency-Key), poll until CANCELLED, receive its webhook.
call /et/vs/card/apply/cancel \
  "{\"app_id\":\"$APP_ID\",\"timestamp\":$(now),\"busi_water_no\":\"$SERIAL\",\"reason\":\"The customer withdrew.\"}" \
  "$(uuid)" > /dev/null
poll_status CANCELLED
verify_webhook 2 application.cancelled

# 8. Reconcile: the events of the application, oldest first (the same objects as the webhook bodies).
call /et/vs/card/events/list "{\"app_id\":\"$APP_ID\",\"timestamp\":$(now),\"busi_water_no\":\"$SERIAL\"}" |
  json '.data.items.map(e=>e.data.sequence+" "+e.type).join("\n")'
echo "done: $SERIAL"
