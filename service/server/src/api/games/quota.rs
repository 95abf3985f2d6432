//! [`WatchQuota`]: how many `WatchGame` streams one client address may have open at once. Each
//! open watch holds a [`WatchTicket`], given back when its stream is dropped (ended, or the client
//! gone); a watch beyond the limit is refused with `TOO_MANY_WATCHES`.
//!
//! The address is the caller's ([`crate::api::Caller`]): behind a proxy listed in
//! `--trusted-proxies`, the client's address that proxy forwarded, as for the rate limit.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::ApiError;

/// The open watches of each client address.
#[derive(Clone, Debug)]
pub struct WatchQuota {
    /// The most one address may have open; 0: no limit.
    limit: usize,
    /// Open watches by address; an address with none is not kept.
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One open watch of a client address, counted until dropped.
#[derive(Debug)]
pub struct WatchTicket {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl WatchQuota {
    /// At most `limit` watches per client address (0: no limit).
    pub fn new(limit: usize) -> WatchQuota {
        WatchQuota { limit, open: Arc::default() }
    }

    /// A ticket for one more watch of `address`; none is needed without a limit or an address
    /// (a call made in process).
    pub fn take(&self, address: Option<IpAddr>) -> Result<Option<WatchTicket>, ApiError> {
        let Some(address) = address.filter(|_| self.limit > 0) else {
            return Ok(None);
        };
        let mut open = self.open.lock().expect("the quota's lock is never poisoned");
        let count = open.entry(address).or_default();
        if *count >= self.limit {
            return Err(ApiError::TooManyWatches { open: *count });
        }
        *count += 1;
        Ok(Some(WatchTicket { open: Arc::clone(&self.open), address }))
    }
}

impl Drop for WatchTicket {
    fn drop(&mut self) {
        let mut open = self.open.lock().expect("the quota's lock is never poisoned");
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_own_limit_and_a_dropped_ticket_frees_its_place() {
        let quota = WatchQuota::new(2);
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let first = quota.take(Some(a)).unwrap();
        let _second = quota.take(Some(a)).unwrap();
        assert!(matches!(quota.take(Some(a)), Err(ApiError::TooManyWatches { open: 2 })));
        assert!(quota.take(Some(b)).unwrap().is_some());
        drop(first);
        assert!(quota.take(Some(a)).unwrap().is_some());
        assert!(quota.take(None).unwrap().is_none());
    }

    #[test]
    fn no_limit_takes_no_tickets() {
        let quota = WatchQuota::new(0);
        assert!(quota.take(Some("::1".parse().unwrap())).unwrap().is_none());
        assert!(quota.open.lock().unwrap().is_empty());
    }
}
