//! HTTP/JSON against a real server with a real HTTP/1.1 client: every route of every unary RPC,
//! the errors as `google.rpc.Status` JSON with their details, API keys and seat tokens, the rate
//! limits, both stream encodings (NDJSON and server-sent events), and the OpenAPI document, which
//! must equal the committed `docs/openapi.json` (`DAMIERA_BLESS=1` rewrites it after a proto
//! change).

mod support;

use std::path::PathBuf;
use std::time::Duration;

use prost::Message;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::TestServer;

const START_FEN: &str = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
const AFTER_22_18: &str = "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
const OPENINGS: [&str; 7] = ["21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"];

/// An HTTP/1.1 client (what `curl` speaks), calling one server.
struct Http {
    /// The client.
    client: reqwest::Client,
    /// `http://host:port`.
    base: String,
}

impl Http {
    fn new(server: &TestServer) -> Http {
        Http { client: reqwest::Client::builder().http1_only().build().unwrap(), base: server.url() }
    }

    /// Sends `method path` with `headers` and the JSON `body` (none when null); answers the
    /// status and the JSON answer.
    async fn call(&self, method: Method, path: &str, headers: &[(&str, &str)], body: Value) -> (StatusCode, Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if !body.is_null() {
            request = request.header("content-type", "application/json").body(body.to_string());
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        assert_eq!(response.version(), reqwest::Version::HTTP_11);
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}")))
    }

    /// A call that must answer 200 OK.
    async fn ok(&self, method: Method, path: &str, headers: &[(&str, &str)], body: Value) -> Value {
        let (status, answer) = self.call(method, path, headers, body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
        answer
    }

    async fn get(&self, path: &str) -> Value {
        self.ok(Method::GET, path, &[], Value::Null).await
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.ok(Method::POST, path, &[], body).await
    }

    /// A seat's call: `POST /v1/{name}:{verb}` with its token.
    async fn seat(&self, name: &str, verb: &str, token: &str, body: Value) -> Value {
        let bearer = format!("Bearer {token}");
        self.ok(Method::POST, &format!("/v1/{name}:{verb}"), &[("authorization", &bearer)], body).await
    }

    /// Opens a stream, asking for `accept`; answers its content type and its lines.
    async fn open(&self, method: Method, path: &str, accept: &str, body: Value) -> (String, Lines) {
        let mut request = self.client.request(method, format!("{}{path}", self.base)).header("accept", accept);
        if !body.is_null() {
            request = request.body(body.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let content_type = response.headers()["content-type"].to_str().unwrap().to_string();
        (content_type, Lines { response, pending: String::new() })
    }

    /// The lines of a whole stream, and its content type.
    async fn stream(&self, method: Method, path: &str, accept: &str, body: Value) -> (String, Vec<String>) {
        let (content_type, mut lines) = self.open(method, path, accept, body).await;
        let mut read = Vec::new();
        while let Some(line) = lines.next().await {
            read.push(line);
        }
        (content_type, read)
    }
}

/// The non-empty lines of a streamed answer, as they come.
struct Lines {
    /// The answer.
    response: reqwest::Response,
    /// Text read past the last whole line.
    pending: String,
}

impl Lines {
    /// The next line; none once the stream has ended.
    async fn next(&mut self) -> Option<String> {
        loop {
            if let Some(end) = self.pending.find('\n') {
                let line: String = self.pending.drain(..=end).collect();
                if line.trim().is_empty() {
                    continue;
                }
                return Some(line.trim_end().to_string());
            }
            let chunk = tokio::time::timeout(Duration::from_secs(30), self.response.chunk()).await;
            self.pending.push_str(std::str::from_utf8(&chunk.expect("the stream goes on").unwrap()?).unwrap());
        }
    }
}

/// A new two-person Italian game: its JSON answer (with `name`, `whiteToken`, `blackToken`).
async fn create(http: &Http, extra: Value) -> Value {
    let mut body = json!({
        "variant": "VARIANT_ITALIAN",
        "white": { "person": { "displayName": "Ada" } },
        "black": { "person": { "displayName": "Bo" } },
    });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    http.post("/v1/games", body).await
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_else(|| panic!("not a string: {value}"))
}

/// The reasons of a Status JSON's `ErrorInfo`s, and the first one's metadata.
fn error_info(status: &Value) -> (&str, Value) {
    let info = status["details"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["@type"] == "type.googleapis.com/google.rpc.ErrorInfo")
        .unwrap_or_else(|| panic!("no ErrorInfo in {status}"));
    assert_eq!(info["domain"], "damiera.dev");
    (text(&info["reason"]), info["metadata"].clone())
}

#[tokio::test]
async fn every_rules_route_answers_canonical_json() {
    let server = TestServer::start(&[]);
    let http = Http::new(&server);

    let variants = http.get("/v1/variants").await;
    let names: Vec<&str> = variants["variants"].as_array().unwrap().iter().map(|v| text(&v["name"])).collect();
    assert_eq!(names, ["italian", "triestina", "turkish"]);
    assert_eq!(
        (variants["variants"][0]["boardSize"].clone(), variants["variants"][0]["menPerSide"].clone()),
        (json!(8), json!(12))
    );

    let start = http.get("/v1/positions:start?variant=VARIANT_ITALIAN").await;
    assert_eq!((text(&start["position"]["fen"]), text(&start["position"]["sideToMove"])), (START_FEN, "COLOR_WHITE"));
    assert_eq!(start["position"]["pieces"].as_array().unwrap().len(), 24);
    // Enums are also read by number, and field names by their proto name.
    assert_eq!(http.get("/v1/positions:start?variant=1").await, start);

    let italian = json!({ "variant": "VARIANT_ITALIAN" });
    let parsed = http.post("/v1/positions:parse", json!({ "variant": "VARIANT_ITALIAN", "fen": START_FEN })).await;
    assert_eq!(text(&parsed["position"]["fen"]), START_FEN);
    let legal: Vec<&str> = parsed["legalMoves"].as_array().unwrap().iter().map(|m| text(&m["notation"])).collect();
    assert_eq!(legal, OPENINGS);

    let listed = http.post("/v1/positions:listLegalMoves", italian.clone()).await;
    let moves: Vec<&str> = listed["moves"].as_array().unwrap().iter().map(|m| text(&m["notation"])).collect();
    assert_eq!(moves, OPENINGS);
    assert_eq!(listed.get("mustCapture"), None, "false is the default, left out");
    assert_eq!(
        listed["moves"][1].clone(),
        json!({ "fromSquare": "22", "toSquare": "18", "path": ["18"], "notation": "22-18", "shortNotation": "22-18" })
    );

    let applied =
        http.post("/v1/positions:applyMove", json!({ "variant": "VARIANT_ITALIAN", "notation": "22-18" })).await;
    assert_eq!(text(&applied["position"]["fen"]), AFTER_22_18);

    let perft =
        http.post("/v1/positions:perft", json!({ "variant": "VARIANT_ITALIAN", "depth": 3, "divide": true })).await;
    assert_eq!(perft["nodes"], json!("302"), "int64 is a string");
    assert_eq!(perft["divisions"].as_array().unwrap().len(), 7);
    assert!(text(&perft["elapsed"]).ends_with('s'), "a Duration is a string of seconds: {}", perft["elapsed"]);

    let rendered = http
        .post(
            "/v1/positions:render",
            json!({ "variant": "VARIANT_ITALIAN", "formats": ["IMAGE_FORMAT_TEXT", "IMAGE_FORMAT_PNG"] }),
        )
        .await;
    assert!(text(&rendered["text"]).lines().count() >= 8, "{}", rendered["text"]);
    use base64::Engine;
    let png = base64::engine::general_purpose::STANDARD.decode(text(&rendered["png"])).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "bytes are base64");
    assert_eq!(rendered.get("svg"), None);
}

#[tokio::test]
async fn best_move_and_the_analyze_stream_in_both_encodings() {
    let server = TestServer::start(&[]);
    let http = Http::new(&server);
    let search = json!({ "search": { "variant": "VARIANT_ITALIAN", "limits": { "depth": 3 }, "seed": "1" } });

    let best = http.post("/v1/engine:bestMove", search.clone()).await;
    assert_eq!(best["result"]["depth"], json!(3));
    assert!(OPENINGS.contains(&text(&best["result"]["bestMove"]["notation"])), "{best}");

    let (content_type, lines) = http.stream(Method::POST, "/v1/engine:analyze", "*/*", search.clone()).await;
    assert_eq!(content_type, "application/x-ndjson");
    let lines: Vec<Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let depths: Vec<Value> = lines[..3].iter().map(|l| l["result"]["iteration"]["depth"].clone()).collect();
    assert_eq!((depths, lines.len()), (vec![json!(1), json!(2), json!(3)], 4), "{lines:?}");
    assert_eq!(lines[3]["result"]["result"]["bestMove"], best["result"]["bestMove"], "seeded: the same search");

    let (content_type, events) = http.stream(Method::POST, "/v1/engine:analyze", "text/event-stream", search).await;
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(events.len(), 4, "{events:?}");
    let last: Value = serde_json::from_str(events[3].strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(last["result"]["bestMove"], best["result"]["bestMove"]);
}

#[tokio::test]
async fn every_game_route_plays_a_game() {
    let server = TestServer::start(&[]);
    let http = Http::new(&server);
    let created = create(&http, json!({})).await;
    let name = text(&created["game"]["name"]).to_string();
    let (white, black) = (text(&created["whiteToken"]).to_string(), text(&created["blackToken"]).to_string());
    assert!(name.starts_with("games/") && white.len() == 64 && black.len() == 64, "{created}");
    assert_eq!(created["game"]["white"], json!({ "person": { "displayName": "Ada" } }));
    assert_eq!(created["game"]["state"]["status"]["state"], "STATE_ONGOING");
    assert_eq!(created["game"]["state"].get("ply"), None, "ply 0 is the default, left out");

    let etag = text(&created["game"]["state"]["etag"]).to_string();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "an RFC 7232 entity tag: {etag}");
    let got = http.get(&format!("/v1/{name}")).await;
    assert_eq!((got["game"]["name"].clone(), got["game"]["state"]["etag"].clone()), (json!(name), json!(etag)));

    let played = http.seat(&name, "move", &white, json!({ "notation": "22-18", "etag": etag })).await;
    assert_eq!(played["playedMove"]["notation"], "22-18");
    assert_eq!(
        (played["game"]["state"]["ply"].clone(), text(&played["game"]["state"]["position"]["fen"])),
        (json!(1), AFTER_22_18)
    );

    let other = create(&http, json!({})).await;
    let listed = http.get("/v1/games?variant=VARIANT_ITALIAN&pageSize=1").await;
    assert_eq!(listed["games"].as_array().unwrap().len(), 1);
    assert_eq!(listed["games"][0]["name"], other["game"]["name"], "newest first");
    assert_eq!(listed["games"][0].get("moves"), None, "the BASIC view by default");
    let token = text(&listed["nextPageToken"]);
    let next =
        http.get(&format!("/v1/games?variant=VARIANT_ITALIAN&pageSize=1&pageToken={token}&view=GAME_VIEW_FULL")).await;
    assert_eq!(next["games"][0]["name"], json!(name));
    assert_eq!(next["games"][0]["moves"][0]["notation"], "22-18");

    let pdn = http.get(&format!("/v1/{name}:exportPdn")).await;
    assert!(text(&pdn["pdn"]).contains("\n1. 22-18 *"), "{pdn}");
    let imported = http.post("/v1/games:import", json!({ "pdn": pdn["pdn"] })).await;
    assert_eq!(imported["game"]["state"]["ply"], json!(1));
    assert_ne!(imported["game"]["name"], json!(name));

    let offered = http.seat(&name, "offerDraw", &black, json!({})).await;
    assert_eq!(offered["game"]["state"]["drawOffer"], "COLOR_BLACK", "{offered}");
    let answered = http.seat(&name, "answerDraw", &white, json!({ "accept": false })).await;
    assert_eq!(answered["game"]["state"].get("drawOffer"), None);
    let resigned = http.seat(&name, "resign", &black, json!({})).await;
    let status = &resigned["game"]["state"]["status"];
    assert_eq!((status["state"].clone(), status["winner"].clone()), (json!("STATE_WON"), json!("COLOR_WHITE")));
    assert_eq!(status["winReason"], "WIN_REASON_RESIGNATION");

    let drawn = create(&http, json!({})).await;
    let drawn_name = text(&drawn["game"]["name"]);
    http.seat(drawn_name, "offerDraw", text(&drawn["whiteToken"]), json!({})).await;
    let agreed = http.seat(drawn_name, "answerDraw", text(&drawn["blackToken"]), json!({ "accept": true })).await;
    assert_eq!(agreed["game"]["state"]["status"]["drawReason"], "DRAW_REASON_AGREEMENT");

    let aborted = create(&http, json!({})).await;
    let abort = http.seat(text(&aborted["game"]["name"]), "abort", text(&aborted["whiteToken"]), json!({})).await;
    assert_eq!(abort["game"]["state"]["status"]["state"], "STATE_ABORTED");

    let kings = create(&http, json!({ "fen": "W:WK29,K32:BK1,K4" })).await;
    let counted =
        http.seat(text(&kings["game"]["name"]), "requestMoveCount", text(&kings["whiteToken"]), json!({})).await;
    let count = &counted["game"]["state"]["moveCount"];
    assert_eq!((count["requestedBy"].clone(), count["limit"].clone()), (json!("COLOR_WHITE"), json!(40)), "{counted}");

    let bearer = format!("Bearer {white}");
    assert_eq!(
        http.ok(Method::DELETE, &format!("/v1/{name}"), &[("authorization", &bearer)], Value::Null).await,
        json!({})
    );
    let (status, error) = http.call(Method::GET, &format!("/v1/{name}"), &[], Value::Null).await;
    assert_eq!((status, error["code"].clone()), (StatusCode::NOT_FOUND, json!(5)), "{error}");
    let again = format!("/v1/{name}?allowMissing=true");
    assert_eq!(http.ok(Method::DELETE, &again, &[("authorization", &bearer)], Value::Null).await, json!({}));

    let takebacks = create(&http, json!({ "options": { "takebacks": true } })).await;
    let (game, white, black) =
        (text(&takebacks["game"]["name"]), text(&takebacks["whiteToken"]), text(&takebacks["blackToken"]));
    http.seat(game, "move", white, json!({ "notation": "22-18" })).await;
    let offer = http.seat(game, "offerTakeback", white, json!({})).await;
    assert_eq!(offer["game"]["state"]["takebackOffer"], "COLOR_WHITE", "{offer}");
    let taken = http.seat(game, "answerTakeback", black, json!({ "accept": true })).await;
    assert_eq!(
        (taken["game"]["state"].get("ply"), text(&taken["game"]["state"]["position"]["fen"])),
        (None, START_FEN)
    );
}

#[tokio::test]
async fn watch_game_streams_its_events_in_order_in_both_encodings() {
    let server = TestServer::start(&[]);
    let http = Http::new(&server);
    let created = create(&http, json!({})).await;
    let name = text(&created["game"]["name"]).to_string();
    let (white, black) = (text(&created["whiteToken"]).to_string(), text(&created["blackToken"]).to_string());

    let path = format!("/v1/{name}:watch");
    let (content_type, mut watch) = http.open(Method::GET, &path, "application/x-ndjson", Value::Null).await;
    assert_eq!(content_type, "application/x-ndjson");
    // The first message is the whole game; then each change, in order.
    let mut lines = vec![watch.next().await.unwrap()];
    http.seat(&name, "move", &white, json!({ "notation": "22-18" })).await;
    lines.push(watch.next().await.unwrap());
    http.seat(&name, "move", &black, json!({ "notation": "11-15" })).await;
    lines.push(watch.next().await.unwrap());
    http.seat(&name, "resign", &white, json!({})).await;
    while let Some(line) = watch.next().await {
        lines.push(line);
    }
    let events: Vec<Value> =
        lines.iter().map(|l| serde_json::from_str::<Value>(l).unwrap()["result"].clone()).collect();
    assert_eq!(events[0]["game"]["name"], json!(name), "{lines:?}");
    let updates: Vec<(Value, Value)> = events[1..]
        .iter()
        .map(|e| {
            (
                e["update"]["moves"].as_array().map(|m| m[0]["notation"].clone()).unwrap_or(Value::Null),
                e["update"]["state"]["status"]["state"].clone(),
            )
        })
        .collect();
    assert_eq!(
        updates,
        [
            (json!("22-18"), json!("STATE_ONGOING")),
            (json!("11-15"), json!("STATE_ONGOING")),
            (Value::Null, json!("STATE_WON")),
        ],
        "{lines:?}"
    );

    // Resuming from ply 1 as server-sent events: the moves since, and the end.
    let (content_type, lines) =
        http.stream(Method::GET, &format!("/v1/{name}:watch?fromPly=1"), "text/event-stream", Value::Null).await;
    assert_eq!(content_type, "text/event-stream");
    assert_eq!(lines.len(), 1, "the game is over: one event, then the stream ends: {lines:?}");
    let event: Value = serde_json::from_str(lines[0].strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(event["update"]["moves"][0]["notation"], "11-15");
    assert_eq!(event["update"]["state"]["status"]["winner"], "COLOR_BLACK");
}

#[tokio::test]
async fn review_game_streams_its_moves_then_the_summary() {
    let server = TestServer::start(&[]);
    let http = Http::new(&server);
    let body =
        json!({ "moves": { "variant": "VARIANT_ITALIAN", "moves": ["22-18", "11-15"] }, "limits": { "depth": 2 } });
    let (_, lines) = http.stream(Method::POST, "/v1/games:review", "*/*", body).await;
    let updates: Vec<Value> =
        lines.iter().map(|l| serde_json::from_str::<Value>(l).unwrap()["result"].clone()).collect();
    let played: Vec<Value> = updates[..2].iter().map(|u| u["reviewedMove"]["played"].clone()).collect();
    assert_eq!((played, updates.len()), (vec![json!("22-18"), json!("11-15")], 3), "{updates:?}");
    assert!(text(&updates[2]["summary"]["chartSvg"]).starts_with("<svg"), "{}", updates[2]);
}

#[tokio::test]
async fn errors_are_google_rpc_status_json_with_their_details() {
    let server = TestServer::start(&[]);
    let http = Http::new(&server);
    let created = create(&http, json!({})).await;
    let name = text(&created["game"]["name"]).to_string();
    let bearer = format!("Bearer {}", text(&created["whiteToken"]));

    let path = format!("/v1/{name}:move");
    let (status, error) =
        http.call(Method::POST, &path, &[("authorization", &bearer)], json!({ "notation": "12-16" })).await;
    assert_eq!((status, error["code"].clone()), (StatusCode::BAD_REQUEST, json!(3)));
    let (reason, metadata) = error_info(&error);
    assert_eq!((reason, metadata["legalMoves"].clone()), ("ILLEGAL_MOVE", json!(OPENINGS.join(" "))));
    let violation =
        error["details"].as_array().unwrap().iter().find(|d| d["@type"] == "type.googleapis.com/google.rpc.BadRequest");
    assert_eq!(violation.unwrap()["fieldViolations"][0]["field"], "notation");

    let (status, error) = http.call(Method::POST, &path, &[], json!({ "notation": "22-18" })).await;
    assert_eq!(
        (status, error["code"].clone(), error_info(&error).0),
        (StatusCode::UNAUTHORIZED, json!(16), "MISSING_TOKEN")
    );
    let wrong = format!("Bearer {}", text(&created["blackToken"]));
    let (status, error) =
        http.call(Method::POST, &path, &[("authorization", &wrong)], json!({ "notation": "22-18" })).await;
    assert_eq!((status, error_info(&error).0), (StatusCode::BAD_REQUEST, "NOT_YOUR_TURN"));
    let (status, error) = http.call(Method::GET, "/v1/games/0000000000", &[], Value::Null).await;
    assert_eq!(
        (status, error["code"].clone(), error_info(&error).0),
        (StatusCode::NOT_FOUND, json!(5), "GAME_NOT_FOUND")
    );
    let etag = text(&created["game"]["state"]["etag"]);
    http.ok(Method::POST, &path, &[("authorization", &bearer)], json!({ "notation": "22-18", "etag": etag })).await;
    let stale = json!({ "notation": "11-15", "etag": etag });
    let (status, error) = http.call(Method::POST, &path, &[("authorization", &wrong)], stale).await;
    assert_eq!((status, error_info(&error).0), (StatusCode::CONFLICT, "STALE_STATE"));

    // What the gateway itself refuses, in the same form.
    let (status, error) = http
        .call(Method::POST, "/v1/positions:applyMove", &[], json!({ "variant": "VARIANT_ITALIAN", "notaton": "x" }))
        .await;
    assert_eq!((status, error_info(&error).0), (StatusCode::BAD_REQUEST, "INVALID_ARGUMENT"));
    assert!(
        text(&error["message"]).starts_with("body: not a JSON ApplyMoveRequest: unrecognized field name 'notaton'"),
        "{error}"
    );
    let (status, error) = http.call(Method::GET, "/v1/games?pageSize=ten", &[], Value::Null).await;
    assert_eq!((status, text(&error["message"])), (StatusCode::BAD_REQUEST, "pageSize: 'ten' is not an int32"));
    let (status, error) = http.call(Method::GET, "/v1/games?colour=white", &[], Value::Null).await;
    assert_eq!(
        (status, text(&error["message"])),
        (StatusCode::BAD_REQUEST, "colour: ListGamesRequest has no field 'colour'")
    );
    let (status, error) = http.call(Method::PATCH, &format!("/v1/{name}"), &[], Value::Null).await;
    assert_eq!((status, error_info(&error).0), (StatusCode::NOT_FOUND, "NO_SUCH_PATH"));
    let (status, error) = http.call(Method::GET, "/v1/variants", &[], json!({ "x": 1 })).await;
    assert_eq!(
        (status, text(&error["message"])),
        (StatusCode::BAD_REQUEST, "body: GET takes no body: send its fields as query parameters")
    );
}

#[tokio::test]
async fn api_keys_and_rate_limits_apply_to_http_calls() {
    let server = TestServer::start(&["--api-key", "s3cret", "--rate-limit", "1"]);
    let http = Http::new(&server);
    let (status, error) = http.call(Method::GET, "/v1/variants", &[], Value::Null).await;
    assert_eq!((status, error_info(&error).0), (StatusCode::UNAUTHORIZED, "API_KEY_REQUIRED"));
    // Bursts of twice the rate: the refused call above counted, so one more passes.
    http.ok(Method::GET, "/v1/variants", &[("x-api-key", "s3cret")], Value::Null).await;
    let (status, error) = http.call(Method::GET, "/v1/variants", &[("x-api-key", "s3cret")], Value::Null).await;
    assert_eq!((status, error_info(&error).0), (StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED"));
    let retry =
        error["details"].as_array().unwrap().iter().find(|d| d["@type"] == "type.googleapis.com/google.rpc.RetryInfo");
    assert!(text(&retry.unwrap()["retryDelay"]).ends_with('s'), "{error}");
}

/// Where the committed OpenAPI document lives.
fn committed_openapi() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json")
}

#[tokio::test]
async fn the_openapi_document_matches_the_proto_and_the_committed_copy() {
    let server = TestServer::start(&[]);
    let served = Http::new(&server).get("/openapi.json").await;
    let written = format!("{}\n", serde_json::to_string_pretty(&served).unwrap());
    if std::env::var_os("DAMIERA_BLESS").is_some() {
        std::fs::write(committed_openapi(), &written).unwrap();
    }
    let committed = std::fs::read_to_string(committed_openapi()).unwrap_or_default();
    assert!(committed == written, "docs/openapi.json is not what the proto makes: run this test with DAMIERA_BLESS=1");

    // Every RPC of the three services has an operation.
    let descriptors = prost_types::FileDescriptorSet::decode(damiera_server::proto::FILE_DESCRIPTOR_SET).unwrap();
    let mut rpcs: Vec<String> = descriptors
        .file
        .iter()
        .filter(|f| f.package() == "damiera.v1")
        .flat_map(|f| &f.service)
        .flat_map(|s| s.method.iter().map(move |m| format!("{}_{}", s.name(), m.name())))
        .collect();
    let mut operations: Vec<String> = served["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|path| path.as_object().unwrap().values().map(|op| text(&op["operationId"]).to_string()))
        .collect();
    rpcs.sort();
    operations.sort();
    assert_eq!(operations, rpcs);
    assert_eq!(served["paths"]["/v1/games/{name}:move"]["post"]["operationId"], "GameService_MakeMove");
}
