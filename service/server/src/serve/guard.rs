//! [`GuardLayer`]: the API key, the client's address and the rate limits, in front of Damiera's
//! own services.
//!
//! Health and reflection stay open (load balancers and tools need them). Every `damiera.v1` call
//! is checked in turn: its client address (the peer, or what a trusted proxy forwarded,
//! [`TrustedProxies`]) may make so many calls a second; its `x-api-key` must be one the
//! [`Keyring`] accepts when the server wants keys; and each key may make so many calls a second.
//! Both limits allow bursts of twice the rate and answer `RESOURCE_EXHAUSTED` with a `RetryInfo`
//! saying when to come back and a `QuotaFailure` naming the address or the key; they are kept
//! with `governor`'s keyed limiters. The call then carries its [`Caller`] (tenant and address)
//! in its extensions, for the handlers.

use std::future::Future;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tonic::transport::server::{TcpConnectInfo, TlsConnectInfo};
use tower::{Layer, Service};

use super::client::TrustedProxies;
use crate::api::{ApiError, Caller};
use crate::tenants::keyring::{Keyring, Refusal};

/// The path prefix of Damiera's own services.
const GUARDED_PREFIX: &str = "/damiera.v1.";

/// How often addresses and keys that have gone quiet are forgotten.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// What the guard checks.
#[derive(Clone, Debug)]
pub struct GuardLayer {
    /// The keys calls may carry, and their tenants.
    keyring: Arc<Keyring>,
    /// The proxies whose forwarded client addresses are believed.
    proxies: Arc<TrustedProxies>,
    /// Calls per second per client address, when limited.
    per_client: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
    /// Calls per second per API key (by its id), when limited.
    per_key: Option<Arc<DefaultKeyedRateLimiter<String>>>,
}

impl GuardLayer {
    /// A guard wanting the keys of `keyring`, reading client addresses forwarded by `proxies`,
    /// and allowing `per_client` calls a second per client address and `per_key` per key (0: no
    /// limit). Must be made inside the async runtime: it starts tasks that forget quiet clients.
    pub fn new(keyring: Arc<Keyring>, proxies: TrustedProxies, per_client: u32, per_key: u32) -> GuardLayer {
        GuardLayer { keyring, proxies: Arc::new(proxies), per_client: limiter(per_client), per_key: limiter(per_key) }
    }

    /// Lets a call through, with its [`Caller`] in its extensions, or says why it may not go.
    fn admit<B>(&self, request: &mut http::Request<B>) -> Result<(), ApiError> {
        if !request.uri().path().starts_with(GUARDED_PREFIX) {
            return Ok(());
        }
        let address = peer(request).map(|peer| self.proxies.client_address(peer, request.headers()));
        if let (Some(limiter), Some(address)) = (&self.per_client, address) {
            check(limiter, &address, || format!("client {address}"))?;
        }
        let given = request.headers().get("x-api-key").and_then(|value| value.to_str().ok());
        let admitted = self.keyring.admit(given).map_err(|refusal| match refusal {
            Refusal::Unknown => ApiError::ApiKey,
            Refusal::Revoked => ApiError::ApiKeyRevoked,
        })?;
        if let (Some(limiter), Some(key)) = (&self.per_key, &admitted.key_id) {
            check(limiter, key, || format!("key {key}"))?;
        }
        request.extensions_mut().insert(Caller { tenant: admitted.tenant, address });
        Ok(())
    }
}

/// The address of the connection a call came on, over TCP or TLS.
fn peer<B>(request: &http::Request<B>) -> Option<IpAddr> {
    let extensions = request.extensions();
    let tcp = extensions.get::<TcpConnectInfo>().and_then(TcpConnectInfo::remote_addr);
    let tls = || extensions.get::<TlsConnectInfo<TcpConnectInfo>>().and_then(|info| info.get_ref().remote_addr());
    tcp.or_else(tls).map(|address| address.ip())
}

/// Takes one call from `key`'s allowance, or says when the next one is allowed.
fn check<K: Hash + Eq + Clone>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
    subject: impl FnOnce() -> String,
) -> Result<(), ApiError> {
    limiter.check_key(key).map_err(|not_until| ApiError::RateLimited {
        retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        subject: subject(),
    })
}

/// A limiter of `per_second` calls a second per key, with bursts of twice that (none for 0), and
/// a task that forgets the keys gone quiet.
fn limiter<K>(per_second: u32) -> Option<Arc<DefaultKeyedRateLimiter<K>>>
where
    K: Hash + Eq + Clone + Send + Sync + 'static,
{
    NonZeroU32::new(per_second).map(|rate| {
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
    })
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

    fn call(&mut self, mut request: http::Request<RequestBody>) -> Self::Future {
        match self.guard.admit(&mut request) {
            Err(error) => {
                let response = tonic::Status::from(error).into_http();
                Box::pin(async move { Ok(response) })
            }
            Ok(()) => Box::pin(self.inner.call(request)),
        }
    }
}
