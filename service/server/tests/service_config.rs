//! The published gRPC service config (`proto/service_config.json`) agrees with the protos: every
//! method it names exists; it retries every unary call marked `NO_SIDE_EFFECTS` and every unary
//! call that changes a game (idempotent by `request_id`), on `UNAVAILABLE` only; and it leaves
//! the streams alone.

use std::collections::BTreeSet;

use damiera_server::proto::FILE_DESCRIPTOR_SET;
use prost::Message;
use prost_types::method_options::IdempotencyLevel;
use prost_types::FileDescriptorSet;
use serde_json::Value;

/// Every method of the API as `Service/Method`, with whether it streams and its idempotency.
fn methods() -> Vec<(String, bool, IdempotencyLevel)> {
    let set = FileDescriptorSet::decode(FILE_DESCRIPTOR_SET).expect("the descriptor set decodes");
    let mut methods = Vec::new();
    for file in set.file.iter().filter(|file| file.package() == "damiera.v1") {
        for service in &file.service {
            for method in &service.method {
                let level =
                    method.options.as_ref().map_or(IdempotencyLevel::IdempotencyUnknown, |o| o.idempotency_level());
                let streams = method.server_streaming() || method.client_streaming();
                methods.push((format!("damiera.v1.{}/{}", service.name(), method.name()), streams, level));
            }
        }
    }
    methods
}

/// The methods each of the config's method configs names, a whole service expanded to its methods.
fn configured(all: &[(String, bool, IdempotencyLevel)]) -> Vec<(BTreeSet<String>, Value)> {
    let text = include_str!("../../../proto/service_config.json");
    let config: Value = serde_json::from_str(text).expect("the service config is JSON");
    let entries = config["methodConfig"].as_array().expect("a methodConfig list");
    entries
        .iter()
        .map(|entry| {
            let mut names = BTreeSet::new();
            for name in entry["name"].as_array().expect("names") {
                let service = name["service"].as_str().expect("a service");
                match name["method"].as_str() {
                    Some(method) => {
                        let full = format!("{service}/{method}");
                        assert!(
                            all.iter().any(|(m, _, _)| *m == full),
                            "the service config names {full}, which is no method"
                        );
                        names.insert(full);
                    }
                    None => {
                        let prefix = format!("{service}/");
                        let of_service: Vec<_> = all.iter().filter(|(m, _, _)| m.starts_with(&prefix)).collect();
                        assert!(!of_service.is_empty(), "the service config names {service}, which is no service");
                        names.extend(of_service.into_iter().map(|(m, _, _)| m.clone()));
                    }
                }
            }
            (names, entry["retryPolicy"].clone())
        })
        .collect()
}

#[test]
fn the_service_config_retries_the_idempotent_calls_on_unavailable() {
    let all = methods();
    let configs = configured(&all);
    let retried: BTreeSet<String> = configs.iter().flat_map(|(names, _)| names.iter().cloned()).collect();
    for (_, policy) in &configs {
        assert_eq!(policy["retryableStatusCodes"], serde_json::json!(["UNAVAILABLE"]), "{policy}");
        assert_eq!(policy["maxAttempts"], 4);
    }
    let read_only: BTreeSet<String> = all
        .iter()
        .filter(|(_, streams, level)| !streams && *level == IdempotencyLevel::NoSideEffects)
        .map(|(name, _, _)| name.clone())
        .collect();
    assert_eq!(configs[0].0, read_only, "the first config is the read-only calls");
    let changing = [
        "CreateGame",
        "ImportGame",
        "MakeMove",
        "Resign",
        "OfferDraw",
        "AnswerDraw",
        "RequestMoveCount",
        "AbortGame",
        "OfferTakeback",
        "AnswerTakeback",
        "DeleteGame",
    ];
    let changing: BTreeSet<String> = changing.iter().map(|m| format!("damiera.v1.GameService/{m}")).collect();
    assert_eq!(configs[1].0, changing, "the second config is the calls that change a game");
    // What is left: the streams, and nothing else.
    let left: Vec<_> = all.iter().filter(|(name, _, _)| !retried.contains(name)).collect();
    assert!(left.iter().all(|(_, streams, _)| *streams), "not retried, though unary: {left:?}");
    assert_eq!(left.len(), 3, "Analyze, WatchGame and ReviewGame: {left:?}");
}
