//! [`GuardLayer`]: the API key and the per-client rate limit, in front of Damiera's own services.
//!
//! Health and reflection stay open (load balancers and tools need them); every `damiera.v1`
//! call must carry `x-api-key` when the server has one, and each client address may make so many
//! calls a second (a burst of twice that) before it answers `RESOURCE_EXHAUSTED` with a
//! `RetryInfo` saying when to come back. Limits are kept per peer IP address with `governor`.

use std::future::Future;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};
use tonic::transport::server::TcpConnectInfo;
use tower::{Layer, Service};

use crate::api::ApiError;

/// The path prefix of Damiera's own services.
const GUARDED_PREFIX: &str = "/damiera.v1.";

/// How often addresses that have gone quiet are forgotten.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// What the guard checks.
#[derive(Clone, Debug, Default)]
pub struct GuardLayer {
    /// The SHA-256 of the API key, when calls need one.
    api_key_hash: Option<[u8; 32]>,
    /// Calls per second per client address, when limited.
    limiter: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
}

impl GuardLayer {
    /// A guard wanting `api_key` (if any) and allowing `per_second` calls per client (0: no limit).
    /// Must be made inside the async runtime: it starts a task that forgets quiet clients.
    pub fn new(api_key: Option<&str>, per_second: u32) -> GuardLayer {
        let limiter = NonZeroU32::new(per_second).map(|rate| {
            let burst = rate.saturating_mul(NonZeroU32::new(2).expect("two is not zero"));
            let limiter = Arc::new(RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)));
            let forgetting = Arc::downgrade(&limiter);
            tokio::spawn(async move {
                let mut ticks = tokio::time::interval(FORGET_EVERY);
                loop {
                    ticks.tick().await;
                    let Some(limiter) = forgetting.upgrade() else { return };
                    limiter.retain_recent();
                    limiter.shrink_to_fit();
                }
            });
            limiter
        });
        GuardLayer { api_key_hash: api_key.map(|key| Sha256::digest(key.as_bytes()).into()), limiter }
    }

    /// Why a call may not go through, if it may not.
    fn refusal<B>(&self, request: &http::Request<B>) -> Option<ApiError> {
        if !request.uri().path().starts_with(GUARDED_PREFIX) {
            return None;
        }
        if let Some(expected) = &self.api_key_hash {
            let given = request.headers().get("x-api-key").map(|value| Sha256::digest(value.as_bytes()));
            if given.is_none_or(|given| given.as_slice() != expected) {
                return Some(ApiError::ApiKey);
            }
        }
        let limiter = self.limiter.as_ref()?;
        let address = request.extensions().get::<TcpConnectInfo>().and_then(TcpConnectInfo::remote_addr)?;
        limiter.check_key(&address.ip()).err().map(|not_until| ApiError::RateLimited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        })
    }
}

impl<S> Layer<S> for GuardLayer {
    type Service = Guard<S>;

    fn layer(&self, inner: S) -> Guard<S> {
        Guard { inner, guard: self.clone() }
    }
}

/// The service [`GuardLayer`] makes.
#[derive(Clone, Debug)]
pub struct Guard<S> {
    /// The service guarded.
    inner: S,
    /// The checks.
    guard: GuardLayer,
}

impl<S, RequestBody> Service<http::Request<RequestBody>> for Guard<S>
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
        match self.guard.refusal(&request) {
            Some(error) => {
                let response = tonic::Status::from(error).into_http();
                Box::pin(async move { Ok(response) })
            }
            None => Box::pin(self.inner.call(request)),
        }
    }
}
