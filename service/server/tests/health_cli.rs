//! `damiera health` against a real `damiera serve`: the exit status a container health check reads.
//!
//! 0 when the server says SERVING; 1 when it says otherwise, does not know the service, is not
//! there or does not answer in time; 2 for bad arguments. Each failure is one line on stderr.

mod support;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output};

use support::TestServer;

fn health(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damiera")).arg("health").args(args).output().expect("the damiera binary runs")
}

/// The exit code, standard output and standard error of `damiera health ARGS`.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = health(args);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("output is UTF-8");
    (output.status.code(), text(output.stdout), text(output.stderr))
}

/// The one line on stderr of a run that exits with `code` and prints nothing on stdout.
fn failure_line(args: &[&str], code: i32) -> String {
    let (status, stdout, stderr) = run(args);
    assert_eq!(status, Some(code), "damiera health {args:?}: {stderr}");
    assert_eq!(stdout, "", "damiera health {args:?} wrote to stdout");
    assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr:?}");
    stderr.trim_end().to_string()
}

#[test]
fn a_serving_server_exits_0_with_one_line() {
    let server = TestServer::start(&[]);
    let addr = server.grpc.to_string();
    let (status, stdout, stderr) = run(&["--addr", &addr]);
    assert_eq!(status, Some(0), "{stderr}\nserver log:\n{}", server.log_text());
    assert_eq!(stdout, format!("{addr} (server): SERVING\n"));
    assert_eq!(stderr, "");

    let (status, stdout, _) = run(&["--addr", &addr, "--service", "damiera.v1.GameService"]);
    assert_eq!((status, stdout), (Some(0), format!("{addr} damiera.v1.GameService: SERVING\n")));
}

#[test]
fn an_unknown_service_exits_1() {
    let server = TestServer::start(&[]);
    let addr = server.grpc.to_string();
    let line = failure_line(&["--addr", &addr, "--service", "no.such.Service"], 1);
    assert_eq!(line, format!("damiera: {addr} no.such.Service: the server does not know this service (NOT_FOUND)"));
}

#[test]
fn nothing_listening_exits_1() {
    // A port that was free a moment ago: bound, then released.
    let addr = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
    let line = failure_line(&["--addr", &addr], 1);
    assert!(line.starts_with(&format!("damiera: {addr} (server): cannot connect: ")), "{line}");
}

#[test]
fn a_server_that_never_answers_exits_1_after_the_timeout() {
    // A socket that accepts connections (the kernel completes the handshake) but never speaks.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = silent.local_addr().unwrap().to_string();
    let started = std::time::Instant::now();
    let line = failure_line(&["--addr", &addr, "--timeout", "300ms"], 1);
    assert_eq!(line, format!("damiera: {addr} (server): no answer within 300ms"));
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "took {:?}", started.elapsed());
}

#[test]
fn a_draining_server_exits_1() {
    // At SIGTERM health turns NOT_SERVING for --drain-grace before the server stops taking calls.
    let server = TestServer::start(&["--drain-grace", "5s"]);
    let addr = server.grpc.to_string();
    server.signal("TERM");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    let line = loop {
        let (status, _, stderr) = run(&["--addr", &addr]);
        if status == Some(1) || std::time::Instant::now() > deadline {
            break stderr.trim_end().to_string();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(line, format!("damiera: {addr} (server): NOT_SERVING"));
}

#[test]
fn tls_with_the_servers_authority_exits_0() {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let directory = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let cert = directory.join(format!("health-{}-cert.pem", std::process::id()));
    let key = directory.join(format!("health-{}-key.pem", std::process::id()));
    std::fs::write(&cert, certified.cert.pem()).unwrap();
    std::fs::write(&key, certified.signing_key.serialize_pem()).unwrap();
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let server = TestServer::start(&["--tls-cert", cert, "--tls-key", key]);
    let addr = server.grpc.to_string();

    let (status, stdout, stderr) = run(&["--addr", &addr, "--tls-ca", cert, "--tls-domain", "localhost"]);
    assert_eq!((status, stderr.as_str()), (Some(0), ""), "{stdout}");
    // Plain HTTP/2 to a TLS port gets no health answer.
    let line = failure_line(&["--addr", &addr], 1);
    assert!(line.starts_with(&format!("damiera: {addr} (server): ")), "{line}");
}

#[test]
fn bad_arguments_exit_2() {
    let line = failure_line(&["--addr", "no port here"], 2);
    assert!(line.starts_with("damiera: invalid --addr 'no port here': "), "{line}");
    let line = failure_line(&["--addr", "127.0.0.1"], 2);
    assert_eq!(line, "damiera: invalid --addr '127.0.0.1': expected HOST:PORT");
    let line = failure_line(&["--addr", "127.0.0.1:50051", "--timeout", "soon"], 2);
    assert!(line.starts_with("damiera: invalid value 'soon' for '--timeout <TIMEOUT>'"), "{line}");
    let line = failure_line(&[], 2);
    assert_eq!(line, "damiera: the following required arguments were not provided: --addr <ADDR>");
}
