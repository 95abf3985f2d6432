//! The call's deadline, read from the `grpc-timeout` header, and how much of it a search may use.
//!
//! tonic ends a call whose deadline passes with an error; a search that wants to answer with its
//! best move so far has to stop a little before that, so it budgets from the same header.

use std::time::Duration;

use tonic::metadata::MetadataMap;

/// The time left before the caller's deadline, when it set one.
pub fn time_left(metadata: &MetadataMap) -> Option<Duration> {
    parse_timeout(metadata.get("grpc-timeout")?.to_str().ok()?)
}

/// How long a search may run so that its answer still arrives in time: the time left less a
/// margin for queuing the answer and the network, a tenth of it but 2 to 100 ms.
pub fn search_budget(time_left: Duration) -> Duration {
    let margin = (time_left / 10).clamp(Duration::from_millis(2), Duration::from_millis(100));
    time_left.saturating_sub(margin)
}

/// Reads a `grpc-timeout` value: up to 8 digits and a unit (hours to nanoseconds).
fn parse_timeout(text: &str) -> Option<Duration> {
    if text.len() < 2 || text.len() > 9 {
        return None;
    }
    let (digits, unit) = text.split_at(text.len() - 1);
    let value: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(value * 3600),
        "M" => Duration::from_secs(value * 60),
        "S" => Duration::from_secs(value),
        "m" => Duration::from_millis(value),
        "u" => Duration::from_micros(value),
        "n" => Duration::from_nanos(value),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_unit_and_refuses_bad_values() {
        assert_eq!(parse_timeout("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_timeout("3M"), Some(Duration::from_secs(180)));
        assert_eq!(parse_timeout("10S"), Some(Duration::from_secs(10)));
        assert_eq!(parse_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(parse_timeout("7u"), Some(Duration::from_micros(7)));
        assert_eq!(parse_timeout("99999999n"), Some(Duration::from_nanos(99_999_999)));
        for bad in ["", "S", "5", "5s", "-5S", "123456789S", "1.5S"] {
            assert_eq!(parse_timeout(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_budget_leaves_a_margin() {
        assert_eq!(search_budget(Duration::from_secs(5)), Duration::from_millis(4900));
        assert_eq!(search_budget(Duration::from_millis(300)), Duration::from_millis(270));
        assert_eq!(search_budget(Duration::from_millis(10)), Duration::from_millis(8));
        assert_eq!(search_budget(Duration::from_millis(1)), Duration::ZERO);
    }
}
