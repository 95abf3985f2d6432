//! [`SizeLimitLayer`]: a request message over its service's size limit answers
//! `RESOURCE_EXHAUSTED` (reason `REQUEST_TOO_LARGE`, the limit in the `ErrorInfo`), as gRPC says a
//! message too large for the receiver should, rather than the `OUT_OF_RANGE` tonic answers.
//!
//! tonic refuses such a message in its decoder, before any of it is read into memory, and puts
//! the status it answers in the response's extensions. Damiera's own handlers never answer
//! `OUT_OF_RANGE`, so that status is always the decoder's, and is rewritten here with the limit
//! of the service called.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tonic::{Code, Status};
use tower::{Layer, Service};

use crate::api::ApiError;

/// The request size limit of each service.
#[derive(Clone, Debug)]
pub struct RequestLimits {
    /// The largest request message of any service not listed in `services`, in bytes.
    pub default: usize,
    /// Services with a limit of their own, by path prefix (`/damiera.v1.GameService/`).
    pub services: Vec<(&'static str, usize)>,
}

impl RequestLimits {
    /// The limit that applies to a call of `path`.
    pub fn of(&self, path: &str) -> usize {
        self.services.iter().find(|(prefix, _)| path.starts_with(prefix)).map_or(self.default, |&(_, limit)| limit)
    }

    /// The largest limit of any service.
    pub fn largest(&self) -> usize {
        self.services.iter().map(|&(_, limit)| limit).fold(self.default, usize::max)
    }
}

/// Rewrites the decoder's refusals of large messages.
#[derive(Clone, Debug)]
pub struct SizeLimitLayer {
    /// The limits the services were built with.
    limits: Arc<RequestLimits>,
}

impl SizeLimitLayer {
    /// The layer over services built with `limits`.
    pub fn new(limits: RequestLimits) -> SizeLimitLayer {
        SizeLimitLayer { limits: Arc::new(limits) }
    }
}

impl<S> Layer<S> for SizeLimitLayer {
    type Service = SizeLimit<S>;

    fn layer(&self, inner: S) -> SizeLimit<S> {
        SizeLimit { inner, limits: Arc::clone(&self.limits) }
    }
}

/// The service [`SizeLimitLayer`] makes.
#[derive(Clone, Debug)]
pub struct SizeLimit<S> {
    /// The service whose answers are read.
    inner: S,
    /// The limits, to name in the error.
    limits: Arc<RequestLimits>,
}

impl<S, RequestBody> Service<http::Request<RequestBody>> for SizeLimit<S>
where
    S: Service<http::Request<RequestBody>, Response = http::Response<tonic::body::Body>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<RequestBody>) -> Self::Future {
        let maximum = self.limits.of(request.uri().path());
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await?;
            match response.extensions().get::<Status>() {
                Some(status) if status.code() == Code::OutOfRange => {
                    let error = ApiError::RequestTooLarge { detail: status.message().to_string(), maximum };
                    Ok(Status::from(error).into_http())
                }
                _ => Ok(response),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_listed_has_its_own_limit_and_the_others_the_default() {
        let limits = RequestLimits { default: 262_144, services: vec![("/damiera.v1.GameService/", 1_114_112)] };
        assert_eq!(limits.of("/damiera.v1.GameService/ImportGame"), 1_114_112);
        assert_eq!(limits.of("/damiera.v1.RulesService/ApplyMove"), 262_144);
    }
}
