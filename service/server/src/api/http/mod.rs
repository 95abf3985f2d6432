//! HTTP/JSON beside gRPC on the same port: [`HttpJsonLayer`] answers every request that is not
//! gRPC (nor gRPC-Web) by transcoding it, as AIP-127 and the `google.api.http` annotations in the
//! proto say, into a call of the gRPC services below it.
//!
//! A request is matched against the annotated routes ([`routes`]), read into the RPC's request
//! message (JSON body, path variables, query parameters: [`request`]), encoded as a gRPC call and
//! passed down the same stack as any gRPC call (the guard with its API keys and rate limits, the
//! size limits, the logs and metrics, the handlers), with the HTTP request's headers
//! (`x-api-key`, `authorization: Bearer ...`) and connection. The answer comes back as JSON
//! ([`response`]). Messages are prost-reflect's dynamic messages over the descriptor set the
//! build writes, so the JSON is the canonical proto3 mapping and no message has a codec of its
//! own. `GET /openapi.json` answers the OpenAPI document of the routes ([`openapi`]).

mod openapi;
mod request;
mod response;
mod routes;
mod status;
mod template;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use prost::bytes::{BufMut, Bytes, BytesMut};
use prost::Message;
use prost_reflect::DescriptorPool;
use tower::{Layer, Service, ServiceExt};

use crate::api::ApiError;
use response::{BoxError, StreamEncoding};
use routes::{Route, Routes};

/// The path of the OpenAPI document.
const OPENAPI_PATH: &str = "/openapi.json";

/// Headers of the HTTP request that are not passed on to the gRPC call: they describe the HTTP
/// message, which the call replaces.
const HTTP_ONLY_HEADERS: [http::HeaderName; 9] = [
    http::header::CONTENT_TYPE,
    http::header::CONTENT_LENGTH,
    http::header::TRANSFER_ENCODING,
    http::header::CONNECTION,
    http::header::ACCEPT,
    http::header::ACCEPT_ENCODING,
    http::header::HOST,
    http::header::TE,
    http::header::EXPECT,
];

/// What the gateway serves: the messages' descriptors, the routes and the OpenAPI document.
#[derive(Debug)]
pub struct Gateway {
    /// Damiera's descriptors and `google.rpc`'s (for the error details).
    pool: DescriptorPool,
    /// The annotated routes.
    routes: Routes,
    /// `/openapi.json`, written once.
    openapi: serde_json::Value,
    /// The largest JSON body read, in bytes.
    max_body_bytes: usize,
}

impl Gateway {
    /// The gateway of the services in the build's descriptor set, reading JSON bodies of up to
    /// `max_body_bytes`. An error names an annotation it cannot serve.
    pub fn new(max_body_bytes: usize) -> Result<Gateway, String> {
        let pool = descriptors()?;
        let routes = Routes::read(&pool)?;
        let openapi = openapi::write(&routes);
        Ok(Gateway { pool, routes, openapi, max_body_bytes })
    }

    /// Answers an HTTP/JSON request, calling `grpc` for it.
    async fn serve<S, B>(&self, request: http::Request<tonic::body::Body>, grpc: S) -> http::Response<tonic::body::Body>
    where
        S: Service<http::Request<tonic::body::Body>, Response = http::Response<B>>,
        S::Error: Into<BoxError>,
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let path = request.uri().path().to_string();
        if request.method() == http::Method::GET && path == OPENAPI_PATH {
            return response::json(http::StatusCode::OK, &self.openapi);
        }
        let Some((route, bound)) = self.routes.find(request.method(), &path) else {
            let error = ApiError::NoSuchPath(format!("{} {path}", request.method()));
            return response::error(&self.pool, &error.into());
        };
        let encoding = StreamEncoding::accepted(request.headers());
        let call = match self.grpc_request(route, bound, request).await {
            Ok(call) => call,
            Err(error) => return response::error(&self.pool, &error.into()),
        };
        let answer = match grpc.oneshot(call).await {
            Ok(answer) => answer,
            Err(e) => return response::error(&self.pool, &tonic::Status::internal(e.into().to_string())),
        };
        let output = route.rpc.output();
        if route.rpc.is_server_streaming() {
            response::stream(self.pool.clone(), output, encoding, answer)
        } else {
            response::unary(&self.pool, output, answer).await
        }
    }

    /// The gRPC call for an HTTP request to `route`, with the request's headers (less those of
    /// the HTTP message) and extensions (the connection's address).
    async fn grpc_request(
        &self,
        route: &Route,
        bound: Vec<(String, String)>,
        request: http::Request<tonic::body::Body>,
    ) -> Result<http::Request<tonic::body::Body>, ApiError> {
        let (parts, body) = request.into_parts();
        let body = match Limited::new(body, self.max_body_bytes).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(e) if e.is::<LengthLimitError>() => {
                return Err(ApiError::RequestTooLarge {
                    detail: "the JSON body is too long".to_string(),
                    maximum: self.max_body_bytes,
                })
            }
            Err(e) => return Err(ApiError::invalid("body", format!("the body could not be read: {e}"))),
        };
        let message = request::read(route, bound, parts.uri.query(), &body)?;
        let mut frame = BytesMut::with_capacity(5 + message.encoded_len());
        frame.put_u8(0);
        frame.put_u32(u32::try_from(message.encoded_len()).map_err(|_| ApiError::invalid("body", "too large"))?);
        message.encode(&mut frame).map_err(|e| ApiError::Internal(e.to_string()))?;

        let mut call = http::Request::new(tonic::body::Body::new(Full::new(frame.freeze())));
        *call.method_mut() = http::Method::POST;
        *call.uri_mut() = route.grpc_path().parse().map_err(|_| ApiError::Internal("a bad RPC path".to_string()))?;
        *call.version_mut() = http::Version::HTTP_2;
        let mut headers = parts.headers;
        for name in HTTP_ONLY_HEADERS {
            headers.remove(name);
        }
        headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/grpc"));
        headers.insert(http::header::TE, http::HeaderValue::from_static("trailers"));
        *call.headers_mut() = headers;
        *call.extensions_mut() = parts.extensions;
        Ok(call)
    }
}

/// Damiera's descriptors, with `google.rpc`'s for the details of errors.
fn descriptors() -> Result<DescriptorPool, String> {
    let mut pool =
        DescriptorPool::decode(crate::proto::FILE_DESCRIPTOR_SET).map_err(|e| format!("descriptors: {e}"))?;
    pool.decode_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
        .map_err(|e| format!("google.rpc descriptors: {e}"))?;
    Ok(pool)
}

/// Whether a request is gRPC or gRPC-Web, for the services themselves.
fn is_grpc<B>(request: &http::Request<B>) -> bool {
    request
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/grpc"))
}

/// Transcodes HTTP/JSON requests into gRPC calls of the services below.
#[derive(Clone, Debug)]
pub struct HttpJsonLayer {
    /// The routes and the descriptors.
    gateway: Arc<Gateway>,
}

impl HttpJsonLayer {
    /// A layer serving `gateway`.
    pub fn new(gateway: Gateway) -> HttpJsonLayer {
        HttpJsonLayer { gateway: Arc::new(gateway) }
    }
}

impl<S> Layer<S> for HttpJsonLayer {
    type Service = HttpJson<S>;

    fn layer(&self, inner: S) -> HttpJson<S> {
        HttpJson { inner, gateway: Arc::clone(&self.gateway) }
    }
}

/// The service [`HttpJsonLayer`] makes.
#[derive(Clone, Debug)]
pub struct HttpJson<S> {
    /// The gRPC services, with their layers.
    inner: S,
    /// The routes and the descriptors.
    gateway: Arc<Gateway>,
}

impl<S, B> Service<http::Request<tonic::body::Body>> for HttpJson<S>
where
    S: Service<http::Request<tonic::body::Body>, Response = http::Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError> + Send,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        if is_grpc(&request) {
            let call = self.inner.call(request);
            return Box::pin(async move { call.await.map(|answer| answer.map(tonic::body::Body::new)) });
        }
        // The ready service is kept for gRPC calls; the transcoded call waits for a clone.
        let grpc = self.inner.clone();
        let gateway = Arc::clone(&self.gateway);
        Box::pin(async move { Ok(gateway.serve(request, grpc).await) })
    }
}
