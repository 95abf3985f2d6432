//! A gRPC [`Status`] as HTTP/JSON: the HTTP status of its code (google.rpc.Code's table) and the
//! JSON form of `google.rpc.Status`, with the same details (`ErrorInfo`, `BadRequest`,
//! `RetryInfo`, ...) as `@type`d objects.

use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};
use tonic::{Code, Status};

/// The HTTP status that stands for a gRPC code.
pub fn http_status(code: Code) -> http::StatusCode {
    use http::StatusCode as S;
    match code {
        Code::Ok => S::OK,
        Code::Cancelled => S::from_u16(499).unwrap_or(S::BAD_REQUEST),
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => S::BAD_REQUEST,
        Code::DeadlineExceeded => S::GATEWAY_TIMEOUT,
        Code::NotFound => S::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => S::CONFLICT,
        Code::PermissionDenied => S::FORBIDDEN,
        Code::Unauthenticated => S::UNAUTHORIZED,
        Code::ResourceExhausted => S::TOO_MANY_REQUESTS,
        Code::Unimplemented => S::NOT_IMPLEMENTED,
        Code::Unavailable => S::SERVICE_UNAVAILABLE,
        Code::Unknown | Code::Internal | Code::DataLoss => S::INTERNAL_SERVER_ERROR,
    }
}

/// `status` as the JSON of a `google.rpc.Status`. The details the status carries (the encoded
/// `google.rpc.Status` tonic-types writes) are read with `pool`, which knows the detail types.
pub fn json(pool: &DescriptorPool, status: &Status) -> serde_json::Value {
    let descriptor = pool.get_message_by_name("google.rpc.Status");
    let Some(descriptor) = descriptor else {
        return serde_json::json!({ "code": status.code() as i32, "message": status.message() });
    };
    let mut message = DynamicMessage::decode(descriptor.clone(), status.details())
        .unwrap_or_else(|_| DynamicMessage::new(descriptor));
    message.set_field_by_name("code", prost_reflect::Value::I32(status.code() as i32));
    message.set_field_by_name("message", prost_reflect::Value::String(status.message().to_string()));
    to_json(&message)
}

/// A message in the canonical proto3 JSON mapping.
pub fn to_json(message: &DynamicMessage) -> serde_json::Value {
    message
        .serialize_with_options(serde_json::value::Serializer, &SerializeOptions::new())
        .unwrap_or_else(|e| serde_json::json!({ "code": Code::Internal as i32, "message": e.to_string() }))
}
