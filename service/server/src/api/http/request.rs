//! Reads an HTTP request into the RPC's request message: the body as canonical proto3 JSON
//! (prost-reflect's serde), the path's variables and the query string's parameters set field by
//! field from their text, as AIP-127 says.

use prost_reflect::{
    DeserializeOptions, DynamicMessage, FieldDescriptor, Kind, MessageDescriptor, ReflectMessage, Value,
};

use super::routes::{BodyField, Route};
use crate::api::ApiError;

/// The request message of `route`, from the fields its path bound, the query string and the
/// body.
pub fn read(
    route: &Route,
    bound: Vec<(String, String)>,
    query: Option<&str>,
    body: &[u8],
) -> Result<DynamicMessage, ApiError> {
    let input = route.rpc.input();
    let mut message = match &route.body {
        BodyField::All => json(&input, body)?,
        BodyField::Field(name) => {
            let mut message = DynamicMessage::new(input.clone());
            if let Some(field) = input.get_field_by_name(name) {
                let value = match field.kind() {
                    Kind::Message(inner) => Value::Message(json(&inner, body)?),
                    _ => return Err(ApiError::Internal(format!("the body field '{name}' is not a message"))),
                };
                message.set_field(&field, value);
            }
            message
        }
        BodyField::None if body.iter().all(u8::is_ascii_whitespace) => DynamicMessage::new(input.clone()),
        BodyField::None => {
            return Err(ApiError::invalid(
                "body",
                format!("{} takes no body: send its fields as query parameters", route.method),
            ))
        }
    };
    if let Some(query) = query.filter(|_| route.body != BodyField::All) {
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            set(&mut message, &name, &value)?;
        }
    }
    for (name, value) in bound {
        set(&mut message, &name, &value)?;
    }
    Ok(message)
}

/// A message of type `descriptor` from a JSON body; an empty body is the empty message.
fn json(descriptor: &MessageDescriptor, body: &[u8]) -> Result<DynamicMessage, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(DynamicMessage::new(descriptor.clone()));
    }
    let mut reader = serde_json::Deserializer::from_slice(body);
    let message = DynamicMessage::deserialize_with_options(descriptor.clone(), &mut reader, &DeserializeOptions::new())
        .and_then(|message| reader.end().map(|()| message))
        .map_err(|e| ApiError::invalid("body", format!("not a JSON {}: {e}", descriptor.name())))?;
    Ok(message)
}

/// Sets the field at the dotted path `name` (proto or JSON names) from its text; a repeated field
/// takes one more value.
fn set(message: &mut DynamicMessage, name: &str, text: &str) -> Result<(), ApiError> {
    let (head, rest) = match name.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (name, None),
    };
    let descriptor = message.descriptor();
    let field = descriptor
        .get_field_by_name(head)
        .or_else(|| descriptor.get_field_by_json_name(head))
        .ok_or_else(|| ApiError::invalid(name, format!("{} has no field '{head}'", descriptor.name())))?;
    match (rest, field.kind()) {
        (Some(rest), Kind::Message(_)) if !field.is_list() && !field.is_map() => {
            let Value::Message(inner) = message.get_field_mut(&field) else {
                return Err(ApiError::Internal(format!("{head} holds no message")));
            };
            set(inner, rest, text)
        }
        (None, _) if !field.is_map() => {
            let value = scalar(&field, text).map_err(|description| ApiError::invalid(name, description))?;
            match message.get_field_mut(&field) {
                Value::List(values) if field.is_list() => values.push(value),
                slot => *slot = value,
            }
            Ok(())
        }
        _ => Err(ApiError::invalid(name, format!("'{head}' cannot be set from the URL: send it in the body"))),
    }
}

/// The value of `field` written as `text` in a URL.
fn scalar(field: &FieldDescriptor, text: &str) -> Result<Value, String> {
    let number = |kind: &str| format!("'{text}' is not {kind}");
    Ok(match field.kind() {
        Kind::String => Value::String(text.to_string()),
        Kind::Bool => Value::Bool(text.parse().map_err(|_| number("true or false"))?),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::I32(text.parse().map_err(|_| number("an int32"))?),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Value::I64(text.parse().map_err(|_| number("an int64"))?),
        Kind::Uint32 | Kind::Fixed32 => Value::U32(text.parse().map_err(|_| number("a uint32"))?),
        Kind::Uint64 | Kind::Fixed64 => Value::U64(text.parse().map_err(|_| number("a uint64"))?),
        Kind::Float => Value::F32(text.parse().map_err(|_| number("a number"))?),
        Kind::Double => Value::F64(text.parse().map_err(|_| number("a number"))?),
        Kind::Bytes => {
            use base64::Engine;
            let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(text.trim_end_matches('='))
                .or_else(|_| base64::engine::general_purpose::STANDARD.decode(text))
                .map_err(|_| number("base64"))?;
            Value::Bytes(bytes.into())
        }
        Kind::Enum(values) => {
            let value = values.get_value_by_name(text).or_else(|| text.parse().ok().and_then(|n| values.get_value(n)));
            let names = values.values().map(|v| v.name().to_string()).collect::<Vec<_>>().join(", ");
            Value::EnumNumber(value.ok_or_else(|| format!("'{text}' is not one of {names}"))?.number())
        }
        Kind::Message(_) => return Err("a message cannot be set from the URL: send it in the body".to_string()),
    })
}
