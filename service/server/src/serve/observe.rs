//! [`ObserveLayer`]: one tracing span, one log line and the request metrics for every gRPC call.
//!
//! A gRPC call's status comes in the response headers when it fails at once ("trailers only") and
//! otherwise in the trailers after the last message, so the layer follows the response body to
//! its end. A call whose body is dropped before that (the client cancelled) counts as `CANCELLED`.

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{ready, Context, Poll};
use std::time::Instant;

use http::HeaderMap;
use http_body::{Body, Frame};
use prost::Message;
use prost_types::FileDescriptorSet;
use tonic::Code;
use tower::{Layer, Service};
use tracing::{field, info_span, Instrument, Span};

/// Wraps a service so that every call is traced and counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct ObserveLayer;

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe { inner }
    }
}

/// The service [`ObserveLayer`] makes.
#[derive(Clone, Debug)]
pub struct Observe<S> {
    /// The service observed.
    inner: S,
}

impl<S, RequestBody, ResponseBody> Service<http::Request<RequestBody>> for Observe<S>
where
    S: Service<http::Request<RequestBody>, Response = http::Response<ResponseBody>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<ObservedBody<ResponseBody>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<RequestBody>) -> Self::Future {
        let call = Call::start(request.uri().path());
        let response = self.inner.call(request).instrument(call.span.clone());
        Box::pin(async move {
            let response = response.await?;
            Ok(match code_in(response.headers()) {
                Some(code) => {
                    call.finish(code);
                    response.map(|inner| ObservedBody { inner, call: None })
                }
                None => response.map(|inner| ObservedBody { inner, call: Some(call) }),
            })
        })
    }
}

pin_project_lite::pin_project! {
    /// A response body that records its call's status when the trailers pass.
    pub struct ObservedBody<B> {
        #[pin]
        inner: B,
        call: Option<Call>,
    }
}

impl<B: Body> Body for ObservedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        let frame = ready!(this.inner.poll_frame(cx));
        let code = match &frame {
            Some(Ok(frame)) => frame.trailers_ref().and_then(code_in),
            Some(Err(_)) => Some(Code::Internal),
            // The body ended without trailers: no status was ever sent.
            None => Some(Code::Unknown),
        };
        if let Some(code) = code {
            if let Some(call) = this.call.take() {
                call.finish(code);
            }
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The gRPC status in a header map, if it holds one.
fn code_in(headers: &HeaderMap) -> Option<Code> {
    let value = headers.get("grpc-status")?.to_str().ok()?.parse().ok()?;
    Some(Code::from_i32(value))
}

/// One call in flight: what to record when it ends.
struct Call {
    /// The RPC, as a metric label: its path, or "unknown" for paths no service serves.
    method: &'static str,
    /// When the request arrived.
    start: Instant,
    /// The call's span; the handler's own events nest in it.
    span: Span,
    /// Set once the status is recorded, so that dropping the call records nothing more.
    finished: bool,
}

impl Call {
    fn start(path: &str) -> Call {
        let method = method_label(path);
        let span = info_span!("grpc", method, code = field::Empty, latency_ms = field::Empty);
        Call { method, start: Instant::now(), span, finished: false }
    }

    fn finish(mut self, code: Code) {
        self.record(code);
    }

    fn record(&mut self, code: Code) {
        self.finished = true;
        let latency = self.start.elapsed();
        let code_name = code_name(code);
        self.span.record("code", code_name);
        self.span.record("latency_ms", latency.as_secs_f64() * 1000.0);
        tracing::info!(parent: &self.span, "call ended");
        metrics::counter!("damiera_grpc_requests_total", "method" => self.method, "code" => code_name).increment(1);
        metrics::histogram!("damiera_grpc_request_duration_seconds", "method" => self.method)
            .record(latency.as_secs_f64());
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        if !self.finished {
            self.record(Code::Cancelled);
        }
    }
}

/// Known RPC paths keep their name; anything else is "unknown", so that a client sending
/// random paths cannot grow the metrics without bound.
fn method_label(path: &str) -> &'static str {
    known_methods().iter().find(|known| *known == path).map_or("unknown", String::as_str)
}

/// Every RPC path the server serves, read once from the services' own descriptors.
fn known_methods() -> &'static [String] {
    static METHODS: OnceLock<Vec<String>> = OnceLock::new();
    METHODS.get_or_init(|| {
        let sets = [
            crate::proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
        ];
        let files = sets.into_iter().flat_map(|set| FileDescriptorSet::decode(set).map(|s| s.file).unwrap_or_default());
        files
            .flat_map(|file| {
                let package = file.package().to_string();
                file.service.into_iter().flat_map(move |service| {
                    let prefix = format!("/{package}.{}/", service.name());
                    service.method.into_iter().map(move |method| format!("{prefix}{}", method.name()))
                })
            })
            .collect()
    })
}

fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}
