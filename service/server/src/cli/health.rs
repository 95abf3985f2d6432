//! `damiera health`: asks a server's `grpc.health.v1.Health/Check` whether it serves, for
//! container health checks and scripts.
//!
//! The exit status is the answer: 0 when the server says SERVING; 1 for anything else (NOT_SERVING,
//! a service the server does not know, nothing listening, no answer within `--timeout`), with one
//! line on standard error saying which. Bad arguments exit 2, as everywhere in `damiera`. The image
//! is distroless (no shell, no curl, no grpcurl), so its HEALTHCHECK runs this.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

use super::Failure;

/// Arguments of `damiera health`.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The server's gRPC address, HOST:PORT (e.g. 127.0.0.1:50051).
    #[arg(long)]
    addr: String,
    /// The service to ask about, e.g. damiera.v1.GameService; empty: the server as a whole.
    #[arg(long, default_value = "")]
    service: String,
    /// How long connecting and answering may take together ("500ms", "2s").
    #[arg(long, value_parser = humantime::parse_duration, default_value = "2s")]
    timeout: Duration,
    /// PEM certificate of the authority that signed the server's certificate: talk TLS, trusting it.
    #[arg(long)]
    tls_ca: Option<PathBuf>,
    /// The name the server's certificate must carry; default: the host of --addr.
    #[arg(long, requires = "tls_ca")]
    tls_domain: Option<String>,
}

/// Checks the server's health and prints `ADDR SERVICE: SERVING`, or fails with status 1.
pub fn run(args: &HealthArgs, out: &mut impl Write) -> Result<(), Failure> {
    let endpoint = endpoint(args)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Startup(format!("cannot start the runtime: {e}")))?;
    let status = runtime.block_on(async {
        tokio::time::timeout(args.timeout, check(endpoint, &args.service))
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {}", humantime::format_duration(args.timeout))))
    });
    let subject = format!("{} {}", args.addr, service_name(&args.service));
    match status {
        Ok(ServingStatus::Serving) => {
            writeln!(out, "{subject}: SERVING")?;
            Ok(())
        }
        Ok(other) => Err(Failure::Unhealthy(format!("{subject}: {}", other.as_str_name()))),
        Err(reason) => Err(Failure::Unhealthy(format!("{subject}: {reason}"))),
    }
}

/// The channel's settings: plain HTTP/2, or TLS when a CA is given.
fn endpoint(args: &HealthArgs) -> Result<Endpoint, Failure> {
    let scheme = if args.tls_ca.is_some() { "https" } else { "http" };
    let bad_addr = |e: &dyn std::fmt::Display| Failure::BadInput(format!("invalid --addr '{}': {e}", args.addr));
    let endpoint = Endpoint::from_shared(format!("{scheme}://{}", args.addr)).map_err(|e| bad_addr(&e))?;
    if endpoint.uri().port().is_none() || endpoint.uri().path() != "/" {
        return Err(bad_addr(&"expected HOST:PORT"));
    }
    // No timeouts here: `run` bounds connecting and answering together, and says so.
    let Some(ca) = &args.tls_ca else { return Ok(endpoint) };
    let pem = std::fs::read(ca).map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", ca.display())))?;
    let mut tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem));
    if let Some(domain) = &args.tls_domain {
        tls = tls.domain_name(domain);
    }
    endpoint.tls_config(tls).map_err(|e| Failure::BadInput(format!("TLS: {e}")))
}

/// One Check call; an error says why there is no status, in words for the log.
async fn check(endpoint: Endpoint, service: &str) -> Result<ServingStatus, String> {
    let channel = endpoint.connect().await.map_err(|e| format!("cannot connect: {}", error_chain(&e)))?;
    let request = HealthCheckRequest { service: service.to_string() };
    match HealthClient::new(channel).check(request).await {
        Ok(response) => Ok(response.into_inner().status()),
        Err(status) if status.code() == Code::NotFound => {
            Err("the server does not know this service (NOT_FOUND)".into())
        }
        Err(status) => Err(format!("the check failed: {:?}: {}", status.code(), status.message())),
    }
}

/// How the answer names the service: the empty name stands for the whole server.
fn service_name(service: &str) -> &str {
    if service.is_empty() {
        "(server)"
    } else {
        service
    }
}

/// The error and its causes on one line: tonic's own message ("transport error") says little.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
