//! [`Caller`]: who a call comes from, as the transport's guard found it (`serve/guard.rs`): the
//! tenant its API key acts for and the client's address (read from a trusted proxy's forwarded
//! header when there is one). The guard puts it in the request's extensions; handlers read it
//! with [`caller`].

use std::net::IpAddr;

use crate::tenants::TenantId;

/// Who a call comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caller {
    /// The tenant the call acts for.
    pub tenant: TenantId,
    /// The client's address; none for a call made in process.
    pub address: Option<IpAddr>,
}

/// The caller of `request`: as the guard found it, or (a call made in process, past no guard)
/// the implicit tenant with the connection's address, if any.
pub fn caller<T>(request: &tonic::Request<T>) -> Caller {
    request.extensions().get::<Caller>().cloned().unwrap_or_else(|| Caller {
        tenant: TenantId::default(),
        address: request.remote_addr().map(|address| address.ip()),
    })
}
