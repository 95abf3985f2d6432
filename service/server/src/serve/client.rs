//! [`TrustedProxies`]: the client address of a call, which is the connection's peer unless that
//! peer is a proxy listed in `--trusted-proxies`; then it is read from the forwarded headers the
//! proxy added (`Forwarded`, RFC 7239, else `X-Forwarded-For`).
//!
//! The headers list the hops from the client to the proxy, each proxy appending the address it
//! was called from. Only the trusted proxies' own entries can be believed, so the list is read
//! from its end: every trusted proxy is skipped, and the first address that is not one is the
//! client. A client cannot choose its address by sending a header of its own: its entries come
//! before the ones the trusted proxies appended, and are never reached. A call from a peer that is
//! not trusted is that peer, whatever its headers say.
//!
//! ```
//! use damiera_server::serve::TrustedProxies;
//!
//! let proxies = TrustedProxies::parse(&["10.0.0.0/8".to_string()]).unwrap();
//! let mut headers = http::HeaderMap::new();
//! headers.insert("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.0.0.7".parse().unwrap());
//! let from_proxy = proxies.client_address("10.0.0.8".parse().unwrap(), &headers);
//! assert_eq!(from_proxy, "203.0.113.9".parse::<std::net::IpAddr>().unwrap());
//! let direct = proxies.client_address("198.51.100.1".parse().unwrap(), &headers);
//! assert_eq!(direct, "198.51.100.1".parse::<std::net::IpAddr>().unwrap());
//! ```

use std::net::{IpAddr, SocketAddr};

use http::HeaderMap;
use ipnet::IpNet;

/// The proxies whose forwarded headers are believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies {
    /// Their address blocks.
    blocks: Vec<IpNet>,
}

impl TrustedProxies {
    /// The blocks of `--trusted-proxies`: CIDR blocks (`10.0.0.0/8`) or single addresses.
    pub fn parse(list: &[String]) -> Result<TrustedProxies, String> {
        let blocks = list
            .iter()
            .map(|text| {
                let text = text.trim();
                text.parse::<IpNet>()
                    .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("--trusted-proxies: {text:?} is not an address or a CIDR block"))
            })
            .collect::<Result<_, _>>()?;
        Ok(TrustedProxies { blocks })
    }

    fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.blocks.iter().any(|block| block.contains(&address))
    }

    /// The client's address of a call from `peer` with `headers`.
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        for hop in forwarded_hops(headers).iter().rev() {
            // A hop that is no address (`unknown`, an obfuscated name) ends the chain of trust:
            // the call counts as the last trusted proxy's own.
            let Some(address) = hop.map(|hop| hop.to_canonical()) else { break };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        client
    }
}

/// The addresses the forwarded headers list, first hop first: `Forwarded`'s `for=` values when
/// the call has that header, else `X-Forwarded-For`'s; `None` for an entry that is no address.
fn forwarded_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name| headers.get_all(name).iter().filter_map(|value| value.to_str().ok());
    let forwarded: Vec<Option<IpAddr>> = values("forwarded")
        .flat_map(|value| value.split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (name, value) = pair.split_once('=')?;
                name.trim().eq_ignore_ascii_case("for").then(|| node_address(value))
            })
        })
        .collect();
    if !forwarded.is_empty() {
        return forwarded;
    }
    values("x-forwarded-for").flat_map(|value| value.split(',')).map(node_address).collect()
}

/// The address of one hop: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `"[2001:db8::1]:4711"`.
fn node_address(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|address| address.ip()))
        .or_else(|| text.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_first_untrusted_hop_from_the_end_is_the_client() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8".into(), "192.168.1.1".into()]).unwrap();
        let proxy = ip("10.1.2.3");
        let chain = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.9"), ("x-forwarded-for", "192.168.1.1")]);
        assert_eq!(proxies.client_address(proxy, &chain), ip("203.0.113.9"));
        // Nothing forwarded: the proxy itself.
        assert_eq!(proxies.client_address(proxy, &HeaderMap::new()), proxy);
        // Every hop trusted: the first.
        assert_eq!(proxies.client_address(proxy, &headers(&[("x-forwarded-for", "10.9.9.9")])), ip("10.9.9.9"));
        // Not an address: the last trusted hop.
        let unknown = headers(&[("x-forwarded-for", "203.0.113.9, unknown, 10.9.9.9")]);
        assert_eq!(proxies.client_address(proxy, &unknown), ip("10.9.9.9"));
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_says() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8".into()]).unwrap();
        let forged = headers(&[("x-forwarded-for", "1.2.3.4"), ("forwarded", "for=1.2.3.4")]);
        assert_eq!(proxies.client_address(ip("198.51.100.7"), &forged), ip("198.51.100.7"));
        assert_eq!(TrustedProxies::default().client_address(ip("10.0.0.1"), &forged), ip("10.0.0.1"));
    }

    #[test]
    fn forwarded_comes_before_x_forwarded_for_and_takes_every_form() {
        let proxies = TrustedProxies::parse(&["::1".into(), "127.0.0.0/8".into()]).unwrap();
        let both = headers(&[
            ("forwarded", r#"for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711""#),
            ("x-forwarded-for", "198.51.100.1"),
        ]);
        assert_eq!(proxies.client_address(ip("::1"), &both), ip("2001:db8:cafe::17"));
        let with_port = headers(&[("forwarded", "for=\"192.0.2.60:8080\"")]);
        // An IPv4 peer seen as IPv6 (a dual-stack socket) is the same peer.
        assert_eq!(proxies.client_address(ip("::ffff:127.0.0.1"), &with_port), ip("192.0.2.60"));
    }

    #[test]
    fn bad_blocks_are_refused() {
        assert!(TrustedProxies::parse(&["10.0.0.0/33".into()]).is_err());
        assert!(TrustedProxies::parse(&["proxy".into()]).is_err());
    }
}
