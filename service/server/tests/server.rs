//! `damiera serve` as its operators and their tools see it: health, reflection, gRPC-Web and CORS,
//! metrics, TLS, graceful shutdown, the request size limit, and refusing bad flags.
//!
//! Every test starts its own real server process; the flags under test are passed on its command
//! line, exactly as a deployment would.

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use damiera_server::proto::{
    self as pb, BestMoveRequest, GetStartPositionRequest, ImportGameRequest, ListVariantsRequest, ListVariantsResponse,
    ParsePositionRequest, SearchLimits, SearchRequest, StopReason, Variant,
};
use prost::Message;
use support::{failure, TestServer};
use tonic::transport::{Certificate, Channel, ClientTlsConfig};
use tonic::{Code, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
use tonic_reflection::pb::v1::ServerReflectionRequest;

const ITALIAN: i32 = Variant::Italian as i32;
const ITALIAN_START: &str = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
/// White's seven first moves in Italian, one of which a search must answer.
const ITALIAN_OPENING_MOVES: [&str; 7] = ["21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"];
/// How long a server may take to exit once it should.
const EXIT_LIMIT: Duration = Duration::from_secs(10);

// Health

async fn health_status(health: &mut HealthClient<Channel>, service: &str) -> Result<ServingStatus, Code> {
    let request = HealthCheckRequest { service: service.to_string() };
    match health.check(request).await {
        Ok(response) => Ok(response.into_inner().status()),
        Err(status) => Err(status.code()),
    }
}

#[tokio::test]
async fn health_serves_the_server_and_each_service() {
    let server = TestServer::start(&[]);
    let mut health = HealthClient::new(server.channel().await);
    for service in ["", "damiera.v1.RulesService", "damiera.v1.EngineService", "damiera.v1.GameService"] {
        assert_eq!(health_status(&mut health, service).await, Ok(ServingStatus::Serving), "service {service:?}");
    }
    assert_eq!(health_status(&mut health, "damiera.v1.ChessService").await, Err(Code::NotFound));
}

// Reflection

/// Asks a reflection service one question over its bidirectional stream.
async fn reflect(server: &TestServer, question: MessageRequest) -> Result<MessageResponse, Status> {
    let mut client = ServerReflectionClient::new(server.channel().await);
    let request = ServerReflectionRequest { host: String::new(), message_request: Some(question) };
    let mut answers = client.server_reflection_info(tokio_stream::once(request)).await?.into_inner();
    let answer = answers.message().await?.expect("one answer per question");
    Ok(answer.message_response.expect("the answer holds a response"))
}

#[tokio::test]
async fn reflection_lists_exactly_the_services_served() {
    let server = TestServer::start(&[]);
    let MessageResponse::ListServicesResponse(list) =
        reflect(&server, MessageRequest::ListServices(String::new())).await.unwrap()
    else {
        panic!("list_services answers a service list");
    };
    let names: BTreeSet<String> = list.service.into_iter().map(|s| s.name).collect();
    let expected = [
        "damiera.v1.EngineService",
        "damiera.v1.GameService",
        "damiera.v1.RulesService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
    ];
    assert_eq!(names, expected.into_iter().map(String::from).collect());
}

#[tokio::test]
async fn v1alpha_reflection_answers_too() {
    let server = TestServer::start(&[]);
    let mut client =
        tonic_reflection::pb::v1alpha::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    use tonic_reflection::pb::v1alpha::{server_reflection_request, server_reflection_response};
    let request = tonic_reflection::pb::v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut answers = client.server_reflection_info(tokio_stream::once(request)).await.unwrap().into_inner();
    let answer = answers.message().await.unwrap().expect("one answer").message_response;
    let Some(server_reflection_response::MessageResponse::ListServicesResponse(list)) = answer else {
        panic!("list_services answers a service list: {answer:?}");
    };
    let names: BTreeSet<String> = list.service.into_iter().map(|s| s.name).collect();
    let expected = [
        "damiera.v1.EngineService",
        "damiera.v1.GameService",
        "damiera.v1.RulesService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    ];
    assert_eq!(names, expected.into_iter().map(String::from).collect());
}

#[tokio::test]
async fn reflection_describes_the_rules_service() {
    let server = TestServer::start(&[]);
    let question = MessageRequest::FileContainingSymbol("damiera.v1.RulesService".into());
    let MessageResponse::FileDescriptorResponse(files) = reflect(&server, question).await.unwrap() else {
        panic!("a known symbol answers its file");
    };
    let file = prost_types::FileDescriptorProto::decode(files.file_descriptor_proto[0].as_slice()).unwrap();
    assert_eq!((file.name(), file.package()), ("damiera/v1/rules_service.proto", "damiera.v1"));
    let services: Vec<&str> = file.service.iter().map(|s| s.name()).collect();
    assert_eq!(services, ["RulesService"]);
    let methods: Vec<&str> = file.service[0].method.iter().map(|m| m.name()).collect();
    let expected =
        ["ListVariants", "GetStartPosition", "ParsePosition", "ListLegalMoves", "ApplyMove", "Perft", "RenderPosition"];
    assert_eq!(methods, expected);

    let question = MessageRequest::FileContainingSymbol("damiera.v1.NoSuchService".into());
    // tonic-reflection ends the stream with the status rather than answering an ErrorResponse.
    let error = reflect(&server, question).await.unwrap_err();
    assert_eq!((error.code(), error.message()), (Code::NotFound, "symbol 'damiera.v1.NoSuchService' not found"));
}

// gRPC-Web and CORS

/// A gRPC message in its length-prefixed frame, as gRPC and gRPC-Web send it.
fn grpc_frame(message: &impl Message) -> Vec<u8> {
    let body = message.encode_to_vec();
    let mut frame = vec![0];
    frame.extend_from_slice(&u32::try_from(body.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(&body);
    frame
}

/// Splits a gRPC-Web response body into its frames: (flag byte, payload).
fn grpc_web_frames(mut body: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut frames = Vec::new();
    while !body.is_empty() {
        assert!(body.len() >= 5, "a frame header is five bytes: {body:?}");
        let length = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        frames.push((body[0], body[5..5 + length].to_vec()));
        body = &body[5 + length..];
    }
    frames
}

fn http1_client() -> reqwest::Client {
    reqwest::Client::builder().http1_only().build().unwrap()
}

#[tokio::test]
async fn grpc_web_over_http1_answers_with_a_trailer_frame() {
    let server = TestServer::start(&[]);
    let response = http1_client()
        .post(format!("{}/damiera.v1.RulesService/ListVariants", server.url()))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .body(grpc_frame(&ListVariantsRequest {}))
        .send()
        .await
        .unwrap();
    assert_eq!((response.status(), response.version()), (reqwest::StatusCode::OK, reqwest::Version::HTTP_11));
    assert_eq!(response.headers()["content-type"], "application/grpc-web+proto");
    let body = response.bytes().await.unwrap();

    let frames = grpc_web_frames(&body);
    assert_eq!(frames.iter().map(|(flag, _)| *flag).collect::<Vec<_>>(), [0x00, 0x80], "one message, then trailers");
    let variants = ListVariantsResponse::decode(frames[0].1.as_slice()).unwrap().variants;
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["italian", "triestina", "turkish"]);
    let trailers = String::from_utf8(frames[1].1.clone()).unwrap();
    assert!(trailers.split("\r\n").any(|line| line == "grpc-status:0"), "{trailers:?}");

    // The observe layer sits inside gRPC-Web: the call counts like any other.
    let series = r#"damiera_grpc_requests_total{method="/damiera.v1.RulesService/ListVariants",code="OK"}"#;
    assert_eq!(server.metric(series).await, Some(1.0));
}

/// A browser's CORS preflight for a gRPC-Web call from `origin`; answers the allowed origin, if any.
async fn preflight(server: &TestServer, origin: &str) -> Option<String> {
    let response = http1_client()
        .request(reqwest::Method::OPTIONS, format!("{}/damiera.v1.RulesService/ListVariants", server.url()))
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,x-grpc-web")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::OK);
    let header = |name: &str| response.headers().get(name).map(|v| v.to_str().unwrap().to_string());
    let allowed = header("access-control-allow-origin");
    if allowed.is_some() {
        let methods = header("access-control-allow-methods").unwrap_or_default();
        assert!(methods.split(',').any(|m| m.trim() == "POST"), "{methods:?}");
        let headers = header("access-control-allow-headers").unwrap_or_default();
        assert!(headers.split(',').any(|h| h.trim() == "x-grpc-web"), "{headers:?}");
    }
    allowed
}

#[tokio::test]
async fn cors_allows_any_origin_by_default() {
    let server = TestServer::start(&[]);
    assert_eq!(preflight(&server, "https://example.org").await.as_deref(), Some("*"));
}

#[tokio::test]
async fn cors_allows_only_the_listed_origins() {
    let server = TestServer::start(&["--cors-origins", "https://good.example,https://other.example"]);
    assert_eq!(preflight(&server, "https://good.example").await.as_deref(), Some("https://good.example"));
    assert_eq!(preflight(&server, "https://other.example").await.as_deref(), Some("https://other.example"));
    assert_eq!(preflight(&server, "https://evil.example").await, None);
}

// Metrics

#[tokio::test]
async fn metrics_count_calls_by_method_and_code() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    rules.list_variants(ListVariantsRequest {}).await.unwrap();
    let error = rules.get_start_position(GetStartPositionRequest { variant: 0 }).await.unwrap_err();
    assert_eq!(error.code(), Code::InvalidArgument);

    let requests = |method: &str, code: &str| {
        format!(r#"damiera_grpc_requests_total{{method="/damiera.v1.RulesService/{method}",code="{code}"}}"#)
    };
    assert_eq!(server.metric(&requests("ListVariants", "OK")).await, Some(1.0));
    assert_eq!(server.metric(&requests("GetStartPosition", "INVALID_ARGUMENT")).await, Some(1.0));
    assert_eq!(server.metric(&requests("GetStartPosition", "OK")).await, None);
    let latency =
        r#"damiera_grpc_request_duration_seconds_bucket{method="/damiera.v1.RulesService/ListVariants",le="+Inf"}"#;
    assert_eq!(server.metric(latency).await, Some(1.0));
    let count = r#"damiera_grpc_request_duration_seconds_count{method="/damiera.v1.RulesService/ListVariants"}"#;
    assert_eq!(server.metric(count).await, Some(1.0));
}

#[tokio::test]
async fn unknown_paths_count_as_one_unknown_method() {
    let server = TestServer::start(&[]);
    let mut grpc = tonic::client::Grpc::new(server.channel().await);
    for path in ["/damiera.v1.RulesService/Resign", "/damiera.v9.Nowhere/Anything"] {
        grpc.ready().await.unwrap();
        let path = http::uri::PathAndQuery::from_static(path);
        let codec = tonic_prost::ProstCodec::<ListVariantsRequest, ListVariantsResponse>::default();
        let result = grpc.unary(tonic::Request::new(ListVariantsRequest {}), path, codec).await;
        assert_eq!(result.unwrap_err().code(), Code::Unimplemented);
    }
    let series = r#"damiera_grpc_requests_total{method="unknown",code="UNIMPLEMENTED"}"#;
    assert_eq!(server.metric(series).await, Some(2.0));
    let text = server.metrics_text().await;
    assert!(!text.contains("Resign") && !text.contains("Nowhere"), "raw paths must not become labels:\n{text}");
}

// TLS

/// A self-signed certificate for "localhost" and its key, written as PEM files: (cert, key, cert PEM).
fn self_signed_localhost(name: &str) -> (PathBuf, PathBuf, String) {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let directory = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let cert = directory.join(format!("{name}-{}-cert.pem", std::process::id()));
    let key = directory.join(format!("{name}-{}-key.pem", std::process::id()));
    std::fs::write(&cert, certified.cert.pem()).unwrap();
    std::fs::write(&key, certified.signing_key.serialize_pem()).unwrap();
    (cert, key, certified.cert.pem())
}

#[tokio::test]
async fn tls_serves_clients_that_trust_the_certificate() {
    let (cert, key, cert_pem) = self_signed_localhost("tls");
    let server = TestServer::start(&["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()]);

    // The IP address, with the certificate's name given for verification: "localhost" may
    // resolve to ::1 first, where the server does not listen.
    let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&cert_pem)).domain_name("localhost");
    let channel = Channel::from_shared(format!("https://{}", server.grpc)).unwrap().tls_config(tls).unwrap();
    let mut rules = pb::rules_service_client::RulesServiceClient::new(channel.connect().await.unwrap());
    let variants = rules.list_variants(ListVariantsRequest {}).await.unwrap().into_inner().variants;
    assert_eq!(variants.len(), 3);

    // Plain HTTP/2 gets no answer from a TLS port.
    let plain = Channel::from_shared(server.url()).unwrap().connect_lazy();
    let result = pb::rules_service_client::RulesServiceClient::new(plain).list_variants(ListVariantsRequest {}).await;
    // The server answers the HTTP/2 preface with a TLS alert and closes: the client fails on that
    // alert read as an HTTP/2 frame (INTERNAL) or on the closed socket (UNKNOWN, UNAVAILABLE),
    // whichever it meets first.
    let code = result.unwrap_err().code();
    assert!(matches!(code, Code::Internal | Code::Unknown | Code::Unavailable), "{code:?}");
    let variants = rules.list_variants(ListVariantsRequest {}).await.unwrap().into_inner().variants;
    assert_eq!(variants.len(), 3, "the TLS client is unaffected");
}

// Graceful shutdown

/// A search of the Italian start position that outlasts the drain grace: with a move time of 5 s it
/// stops between 2.5 s (no new iteration past half the time) and 5 s.
fn long_search() -> BestMoveRequest {
    let limits = SearchLimits { move_time: Some(prost_types::Duration { seconds: 5, nanos: 0 }), ..Default::default() };
    BestMoveRequest { search: Some(SearchRequest { variant: ITALIAN, limits: Some(limits), ..Default::default() }) }
}

#[tokio::test]
async fn sigterm_turns_health_off_then_finishes_calls_in_flight_and_exits() {
    let mut server = TestServer::start(&["--drain-grace", "1s", "--search-threads", "1"]);
    let mut health = HealthClient::new(server.channel().await);
    let mut watch = health.watch(HealthCheckRequest { service: String::new() }).await.unwrap().into_inner();
    assert_eq!(watch.message().await.unwrap().unwrap().status(), ServingStatus::Serving);

    let mut engine = server.engine().await;
    let search = tokio::spawn(async move { engine.best_move(long_search()).await });
    tokio::time::sleep(Duration::from_millis(500)).await; // the search is under way
    server.signal("TERM");

    assert_eq!(watch.message().await.unwrap().unwrap().status(), ServingStatus::NotServing);
    // During the drain grace the server still answers, and says it is going away.
    for service in ["damiera.v1.RulesService", "damiera.v1.EngineService", "damiera.v1.GameService"] {
        assert_eq!(health_status(&mut health, service).await, Ok(ServingStatus::NotServing), "{service}");
    }
    // A load balancer that saw NOT_SERVING goes away.
    drop((watch, health));

    let status = server.exit_within(EXIT_LIMIT).await.expect("the server exits after the drain");
    assert_eq!(status.code(), Some(0));
    let result = search.await.unwrap().expect("the search in flight completes").into_inner().result.unwrap();
    assert_eq!(result.stop_reason(), StopReason::Limit);
    assert!(result.elapsed.unwrap().seconds >= 2, "the search ran its time: {:?}", result.elapsed);
    let best_move = result.best_move.unwrap().notation;
    assert!(ITALIAN_OPENING_MOVES.contains(&best_move.as_str()), "{best_move}");
    // The search answered after the server had stopped taking calls: it was in flight.
    let log = std::fs::read_to_string(&server.log).unwrap();
    let position = |text: &str| log.find(text).unwrap_or_else(|| panic!("no {text:?} in the log:\n{log}"));
    let stopped_taking_calls = position("no longer taking calls");
    assert!(stopped_taking_calls < position(r#"method="/damiera.v1.EngineService/BestMove" code="OK""#), "{log}");
    assert!(stopped_taking_calls < position("damiera_server::serve: stopped"), "{log}");
}

/// A health `Watch` stream never ends by itself, and load balancers keep one open: the shutdown
/// timeout cuts it, so that SIGTERM always ends the process.
#[tokio::test]
async fn sigterm_exits_even_while_a_health_watch_stays_open() {
    let mut server = TestServer::start(&["--drain-grace", "1s", "--shutdown-timeout", "2s"]);
    let mut health = HealthClient::new(server.channel().await);
    let mut watch = health.watch(HealthCheckRequest { service: String::new() }).await.unwrap().into_inner();
    assert_eq!(watch.message().await.unwrap().unwrap().status(), ServingStatus::Serving);
    // Past the start-up race of `sigterm_right_after_the_listening_line_shuts_down_cleanly`.
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.signal("TERM");
    assert_eq!(watch.message().await.unwrap().unwrap().status(), ServingStatus::NotServing);

    let status = server.exit_within(EXIT_LIMIT).await;
    assert_eq!(status.and_then(|s| s.code()), Some(0), "still running {EXIT_LIMIT:?} after SIGTERM with a Watch open");
}

/// A drain ends `WatchGame` streams cleanly: after the drain grace each gets `UNAVAILABLE` with the
/// ply to resume from, so the server exits at once rather than at the shutdown timeout.
#[tokio::test]
async fn sigterm_ends_game_watches_cleanly_with_the_ply_to_resume_from() {
    use pb::watch_game_response::Event;
    let mut server = TestServer::start(&["--drain-grace", "500ms", "--shutdown-timeout", "60s"]);
    let mut games = server.games().await;
    let request = pb::CreateGameRequest { variant: ITALIAN, ..Default::default() };
    let name = games.create_game(request).await.unwrap().into_inner().game.unwrap().name;
    let mut watch = games.watch_game(pb::WatchGameRequest { name, from_ply: None }).await.unwrap().into_inner();
    assert!(matches!(watch.message().await.unwrap().unwrap().event, Some(Event::Game(_))));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let signalled = Instant::now();
    server.signal("TERM");

    let ended = watch.message().await.expect_err("the stream ends with a status");
    assert_eq!(ended.code(), Code::Unavailable, "{ended:?}");
    assert!(ended.message().contains("watch again with from_ply 0"), "{ended:?}");
    let ended = failure::<()>(Err(ended));
    assert_eq!(ended.reason, "SHUTTING_DOWN");
    assert_eq!(ended.metadata.get("fromPly").map(String::as_str), Some("0"), "{:?}", ended.metadata);
    assert!(signalled.elapsed() >= Duration::from_millis(500), "health went NOT_SERVING first, for the grace");
    let status = server.exit_within(EXIT_LIMIT).await;
    assert_eq!(status.and_then(|s| s.code()), Some(0), "still running {EXIT_LIMIT:?} after SIGTERM with a watch open");
}

/// Scripts and orchestrators take the "listening" line as ready: a SIGTERM sent at once must meet
/// the server's handler (caught before the line is printed), not the default, fatal disposition.
#[test]
fn sigterm_right_after_the_listening_line_shuts_down_cleanly() {
    for attempt in 1..=10 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(["serve", "--listen", "127.0.0.1:0", "--database", &support::scratch_sqlite()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the damiera binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.starts_with("damiera listening: "), "{line:?}");
        // SAFETY: kill(2) on our own child's pid; it touches no memory of this process.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) }, 0);
        let status = wait_for_exit(&mut child);
        assert_eq!(status.code(), Some(0), "attempt {attempt}: {status:?}");
    }
}

// Request size

/// A `ParsePosition` request of exactly `size` bytes.
fn parse_position_of(size: usize) -> ParsePositionRequest {
    let base = ParsePositionRequest { variant: ITALIAN, fen: "W".repeat(1000) }.encoded_len();
    let request = ParsePositionRequest { variant: ITALIAN, fen: "W".repeat(1000 + size - base) };
    assert_eq!(request.encoded_len(), size);
    request
}

/// An `ImportGame` request of exactly `size` bytes.
fn import_of(size: usize) -> ImportGameRequest {
    let base = ImportGameRequest { pdn: "x".repeat(60_000), ..Default::default() }.encoded_len();
    let request = ImportGameRequest { pdn: "x".repeat(60_000 + size - base), ..Default::default() };
    assert_eq!(request.encoded_len(), size);
    request
}

#[tokio::test]
async fn a_request_over_its_limit_is_resource_exhausted_and_one_at_it_is_read() {
    let server = TestServer::start(&["--max-request-bytes", "1024", "--max-pdn-bytes", "4096"]);
    let mut rules = server.rules().await;
    // At the limit the message is read (and its FEN found wrong); one byte more is not read.
    let read = failure(rules.parse_position(parse_position_of(1024)).await);
    assert_eq!((read.code, read.reason.as_str()), (Code::InvalidArgument, "INVALID_FEN"));
    let over = failure(rules.parse_position(parse_position_of(1025)).await);
    assert_eq!((over.code, over.reason.as_str()), (Code::ResourceExhausted, "REQUEST_TOO_LARGE"));
    assert_eq!(over.metadata["maximum"], "1024 bytes");
    assert!(over.message.contains("found 1025 bytes"), "{}", over.message);

    // The game service takes a PDN of --max-pdn-bytes with 64 KiB more: 4096 + 65536 here.
    let mut games = server.games().await;
    let read = failure(games.import_game(import_of(69_632)).await);
    assert_eq!(
        (read.code, read.reason.as_str(), read.fields),
        (Code::InvalidArgument, "LIMIT_EXCEEDED", vec!["pdn".into()])
    );
    let over = failure(games.import_game(import_of(69_633)).await);
    assert_eq!((over.code, over.reason.as_str()), (Code::ResourceExhausted, "REQUEST_TOO_LARGE"));
    assert_eq!(over.metadata["maximum"], "69632 bytes");

    let request = ParsePositionRequest { variant: ITALIAN, fen: ITALIAN_START.into() };
    let position = rules.parse_position(request).await.unwrap().into_inner().position.unwrap();
    assert_eq!(position.fen, ITALIAN_START);
    let refused =
        r#"damiera_grpc_requests_total{method="/damiera.v1.RulesService/ParsePosition",code="RESOURCE_EXHAUSTED"}"#;
    assert_eq!(server.metric(refused).await, Some(1.0));
}

// Bad flags

/// Runs `damiera serve` with `args` to its exit.
fn serve_expecting_exit(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["serve", "--database", &support::scratch_sqlite()])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the damiera binary starts");
    wait_for_exit(&mut child);
    child.wait_with_output().unwrap()
}

/// Waits for `child` to exit; one still running after [`EXIT_LIMIT`] is killed and fails the test.
fn wait_for_exit(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + EXIT_LIMIT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("damiera serve is still running after {EXIT_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The one line on standard error of a run that failed with `code` and wrote nothing else.
fn failure_line(args: &[&str], code: i32) -> String {
    let output = serve_expecting_exit(args);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(code), "damiera serve {args:?}: {stderr}");
    assert_eq!(output.stdout, b"", "damiera serve {args:?} wrote to stdout");
    assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr:?}");
    let line = stderr.trim_end().to_string();
    assert!(line.starts_with("damiera: "), "{line}");
    line
}

#[test]
fn an_unparsable_listen_address_is_bad_input() {
    let line = failure_line(&["--listen", "nonsense"], 2);
    assert_eq!(line, "damiera: invalid value 'nonsense' for '--listen <LISTEN>': invalid socket address syntax");
}

#[test]
fn a_certificate_without_its_key_is_bad_input() {
    let line = failure_line(&["--listen", "127.0.0.1:0", "--tls-cert", "cert.pem"], 2);
    assert_eq!(line, "damiera: the following required arguments were not provided: --tls-key <TLS_KEY>");
}

#[test]
fn unreadable_certificate_files_are_bad_input_naming_the_file() {
    let line = failure_line(&["--listen", "127.0.0.1:0", "--tls-cert", "/nonexistent", "--tls-key", "/nonexistent"], 2);
    assert!(line.starts_with("damiera: cannot read /nonexistent: "), "{line}");
}

#[test]
fn a_certificate_file_that_is_not_pem_is_bad_input() {
    let (cert, _, _) = self_signed_localhost("garbage");
    let key = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("garbage-{}-not-a-key.pem", std::process::id()));
    std::fs::write(&key, "not a key\n").unwrap();
    let line = failure_line(
        &["--listen", "127.0.0.1:0", "--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()],
        2,
    );
    assert!(line.starts_with("damiera: TLS: "), "{line}");
}

#[test]
fn a_port_in_use_fails_to_start_naming_the_address() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let line = failure_line(&["--listen", &address], 1);
    assert!(line.starts_with(&format!("damiera: cannot listen on {address}: ")), "{line}");
}
