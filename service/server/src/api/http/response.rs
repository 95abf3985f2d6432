//! Writes a gRPC response as HTTP/JSON: a unary answer as one JSON object, a stream as
//! newline-delimited JSON (`{"result": ...}` per message, `{"error": ...}` if it fails, as
//! grpc-gateway writes them) or as server-sent events (each message a `data:` event, a failure an
//! `error` event), and a failed call as its `google.rpc.Status` with the matching HTTP status.

use std::convert::Infallible;

use http_body::{Body, Frame};
use http_body_util::{BodyExt, StreamBody};
use prost::bytes::{Buf, Bytes, BytesMut};
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;
use tonic::{Code, Status};

use super::status;

/// The error type of the bodies the gRPC services answer.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The messages a stream may have written but not yet sent to a slow HTTP client.
const STREAM_BUFFER: usize = 16;

/// How a stream is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamEncoding {
    /// One JSON object a line (`application/x-ndjson`).
    Ndjson,
    /// Server-sent events (`text/event-stream`).
    Sse,
}

impl StreamEncoding {
    /// The encoding an `Accept` header asks for: events when it names `text/event-stream`.
    pub fn accepted(headers: &http::HeaderMap) -> StreamEncoding {
        let accept = headers.get_all(http::header::ACCEPT).iter().filter_map(|v| v.to_str().ok());
        if accept.into_iter().any(|v| v.contains("text/event-stream")) {
            StreamEncoding::Sse
        } else {
            StreamEncoding::Ndjson
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            StreamEncoding::Ndjson => "application/x-ndjson",
            StreamEncoding::Sse => "text/event-stream",
        }
    }

    /// One message, or the status that ended the stream, as written on the wire.
    fn write(self, item: Result<serde_json::Value, serde_json::Value>) -> Bytes {
        let text = match (self, item) {
            (StreamEncoding::Ndjson, Ok(message)) => format!("{}\n", serde_json::json!({ "result": message })),
            (StreamEncoding::Ndjson, Err(status)) => format!("{}\n", serde_json::json!({ "error": status })),
            (StreamEncoding::Sse, Ok(message)) => format!("data: {message}\n\n"),
            (StreamEncoding::Sse, Err(status)) => format!("event: error\ndata: {status}\n\n"),
        };
        Bytes::from(text)
    }
}

/// A JSON answer with `status`.
pub fn json(code: http::StatusCode, value: &serde_json::Value) -> http::Response<tonic::body::Body> {
    let mut response =
        http::Response::new(tonic::body::Body::new(http_body_util::Full::new(Bytes::from(value.to_string()))));
    *response.status_mut() = code;
    response.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    response
}

/// A failed call as HTTP/JSON.
pub fn error(pool: &DescriptorPool, status: &Status) -> http::Response<tonic::body::Body> {
    json(status::http_status(status.code()), &status::json(pool, status))
}

/// A unary gRPC answer as HTTP/JSON: its one message, or its status.
pub async fn unary<B>(
    pool: &DescriptorPool,
    output: MessageDescriptor,
    response: http::Response<B>,
) -> http::Response<tonic::body::Body>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    if let Some(status) = failed(response.headers()) {
        return error(pool, &status);
    }
    let collected = match response.into_body().collect().await {
        Ok(collected) => collected,
        Err(e) => return error(pool, &Status::internal(format!("the answer broke off: {}", e.into()))),
    };
    if let Some(status) = collected.trailers().and_then(failed) {
        return error(pool, &status);
    }
    let mut data = collected.to_bytes();
    match next_message(&mut data, &output) {
        Some(Ok(message)) => json(http::StatusCode::OK, &status::to_json(&message)),
        Some(Err(status)) => error(pool, &status),
        None => error(pool, &Status::internal("the call answered no message")),
    }
}

/// A streaming gRPC answer as HTTP/JSON in `encoding`, sent as its messages come. A stream that
/// fails before its first message answers its status as a unary call would.
pub fn stream<B>(
    pool: DescriptorPool,
    output: MessageDescriptor,
    encoding: StreamEncoding,
    response: http::Response<B>,
) -> http::Response<tonic::body::Body>
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    if let Some(status) = failed(response.headers()) {
        return error(&pool, &status);
    }
    let (sender, receiver) = mpsc::channel(STREAM_BUFFER);
    // The task ends when the gRPC stream does or when the HTTP client has gone (a send fails),
    // dropping the gRPC body, which cancels the call.
    tokio::spawn(relay(pool, output, encoding, response.into_body(), sender));
    let frames = ReceiverStream::new(receiver).map(|bytes| Ok::<_, Infallible>(Frame::data(bytes)));
    let mut answer = http::Response::new(tonic::body::Body::new(StreamBody::new(frames)));
    answer.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static(encoding.content_type()));
    answer.headers_mut().insert(http::header::CACHE_CONTROL, http::HeaderValue::from_static("no-cache"));
    answer
}

/// Copies the messages of a gRPC body to `sender`, written in `encoding`, then its status if it
/// failed.
async fn relay<B>(
    pool: DescriptorPool,
    output: MessageDescriptor,
    encoding: StreamEncoding,
    body: B,
    sender: mpsc::Sender<Bytes>,
) where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    let mut body = std::pin::pin!(body);
    let mut pending = BytesMut::new();
    let ended = loop {
        let frame = match body.frame().await {
            None => break None,
            Some(Err(e)) => break Some(Status::internal(format!("the stream broke off: {}", e.into()))),
            Some(Ok(frame)) => frame,
        };
        let frame = match frame.into_data() {
            Ok(data) => {
                pending.extend_from_slice(&data);
                let mut available = pending.clone().freeze();
                let before = available.len();
                let mut sent = true;
                while let Some(message) = next_message(&mut available, &output) {
                    let item = message.map(|m| status::to_json(&m)).map_err(|s| status::json(&pool, &s));
                    sent = sender.send(encoding.write(item)).await.is_ok();
                    if !sent {
                        break;
                    }
                }
                pending.advance(before - available.len());
                if !sent {
                    return;
                }
                continue;
            }
            Err(frame) => frame,
        };
        if let Some(status) = frame.trailers_ref().and_then(failed) {
            break Some(status);
        }
    };
    if let Some(status) = ended {
        let _ = sender.send(encoding.write(Err(status::json(&pool, &status)))).await;
    }
}

/// The status in gRPC headers or trailers, when it is a failure.
fn failed(headers: &http::HeaderMap) -> Option<Status> {
    Status::from_header_map(headers).filter(|status| status.code() != Code::Ok)
}

/// Takes the next whole gRPC message from `data`, if it holds one: its 5-byte prefix (compressed
/// flag, length) and the message.
fn next_message(data: &mut Bytes, output: &MessageDescriptor) -> Option<Result<DynamicMessage, Status>> {
    if data.len() < 5 {
        return None;
    }
    let length = u32::from_be_bytes([data[1], data[2], data[3], data[4]]) as usize;
    if data.len() < 5 + length {
        return None;
    }
    let compressed = data[0] != 0;
    data.advance(5);
    let bytes = data.split_to(length);
    if compressed {
        return Some(Err(Status::internal("the service answered a compressed message")));
    }
    Some(DynamicMessage::decode(output.clone(), bytes).map_err(|e| Status::internal(format!("bad answer: {e}"))))
}
