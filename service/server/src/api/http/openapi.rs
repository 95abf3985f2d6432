//! The OpenAPI 3 document of the HTTP/JSON routes, written from the descriptors: one operation
//! per route, and a schema per message in the canonical proto3 JSON mapping (lowerCamelCase
//! names, enums by name, 64-bit integers as strings, `Duration` and `Timestamp` as strings).

use std::collections::BTreeSet;

use prost_reflect::{FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{json, Map, Value};

use super::routes::{BodyField, Route, Routes};

/// The document.
pub fn write(routes: &Routes) -> Value {
    let mut paths = Map::new();
    let mut schemas = Schemas::default();
    for route in routes.iter() {
        let path = paths.entry(route.template.openapi_path()).or_insert_with(|| json!({}));
        path[route.method.as_str().to_ascii_lowercase()] = operation(route, &mut schemas);
    }
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "Damiera",
            "version": "v1",
            "description": "Damiera's gRPC API as HTTP/JSON, from the google.api.http annotations of proto/damiera/v1 \
                (docs/api.md, section HTTP/JSON). Errors answer the JSON form of google.rpc.Status.",
        },
        "paths": paths,
        "components": { "schemas": schemas.written() },
    })
}

/// One route's operation.
fn operation(route: &Route, schemas: &mut Schemas) -> Value {
    let input = route.rpc.input();
    let bound: BTreeSet<&str> = route.template.fields().collect();
    let mut parameters: Vec<Value> = route
        .template
        .variable_patterns()
        .map(|(field, pattern)| {
            json!({
                "name": field,
                "in": "path",
                "required": true,
                "description": format!("The last segment of the request's `{field}` (`{pattern}`)."),
                "schema": { "type": "string" },
            })
        })
        .collect();
    if route.body == BodyField::None {
        for field in input.fields().filter(|f| !bound.contains(f.name()) && !matches!(f.kind(), Kind::Message(_))) {
            parameters.push(json!({ "name": field.json_name(), "in": "query", "schema": schemas.field(&field) }));
        }
    }
    let mut operation = json!({
        "operationId": format!("{}_{}", route.rpc.parent_service().name(), route.rpc.name()),
        "tags": [route.rpc.parent_service().name()],
        "parameters": parameters,
        "responses": {
            "200": answer(route, schemas),
            "default": {
                "description": "The call failed: a google.rpc.Status with its details.",
                "content": { "application/json": { "schema": schemas.reference_by_name("google.rpc.Status") } },
            },
        },
    });
    let body = match &route.body {
        BodyField::None => None,
        BodyField::All => Some(schemas.reference(&input)),
        BodyField::Field(name) => input.get_field_by_name(name).map(|field| schemas.field(&field)),
    };
    if let Some(schema) = body {
        operation["requestBody"] = json!({ "required": true, "content": { "application/json": { "schema": schema } } });
    }
    operation
}

/// The successful answer of a route: a message, or a stream of them.
fn answer(route: &Route, schemas: &mut Schemas) -> Value {
    let output = schemas.reference(&route.rpc.output());
    if !route.rpc.is_server_streaming() {
        return json!({ "description": "The answer.", "content": { "application/json": { "schema": output } } });
    }
    json!({
        "description": "A stream: newline-delimited JSON, each line {\"result\": message} or a last {\"error\": status}; \
            with `Accept: text/event-stream`, server-sent events, a message per event and a last `error` event.",
        "content": {
            "application/x-ndjson": { "schema": {
                "type": "object",
                "properties": { "result": output, "error": schemas.reference_by_name("google.rpc.Status") },
            } },
            "text/event-stream": { "schema": { "type": "string" } },
        },
    })
}

/// The schemas named so far, written on demand.
#[derive(Default)]
struct Schemas {
    /// The messages referred to, by full name.
    wanted: BTreeSet<String>,
    /// The descriptors of the wanted messages.
    messages: Vec<MessageDescriptor>,
}

impl Schemas {
    /// A reference to `message`'s schema.
    fn reference(&mut self, message: &MessageDescriptor) -> Value {
        if let Some(schema) = well_known(message.full_name()) {
            return schema;
        }
        if self.wanted.insert(message.full_name().to_string()) {
            self.messages.push(message.clone());
        }
        json!({ "$ref": format!("#/components/schemas/{}", message.full_name()) })
    }

    /// A reference to a schema named without its descriptor (written with a placeholder).
    fn reference_by_name(&mut self, name: &str) -> Value {
        self.wanted.insert(name.to_string());
        json!({ "$ref": format!("#/components/schemas/{name}") })
    }

    /// The schema of one field's value.
    fn field(&mut self, field: &FieldDescriptor) -> Value {
        let value = match field.kind() {
            Kind::Message(message) if field.is_map() => {
                let value = message.map_entry_value_field();
                json!({ "type": "object", "additionalProperties": self.kind(&value.kind()) })
            }
            kind => self.kind(&kind),
        };
        if field.is_list() {
            json!({ "type": "array", "items": value })
        } else {
            value
        }
    }

    fn kind(&mut self, kind: &Kind) -> Value {
        match kind {
            Kind::Double | Kind::Float => json!({ "type": "number" }),
            Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => json!({ "type": "integer", "format": "int32" }),
            Kind::Uint32 | Kind::Fixed32 => json!({ "type": "integer", "format": "int64", "minimum": 0 }),
            Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => json!({ "type": "string", "format": "int64" }),
            Kind::Uint64 | Kind::Fixed64 => json!({ "type": "string", "format": "uint64" }),
            Kind::Bool => json!({ "type": "boolean" }),
            Kind::String => json!({ "type": "string" }),
            Kind::Bytes => json!({ "type": "string", "format": "byte" }),
            Kind::Enum(values) => {
                json!({ "type": "string", "enum": values.values().map(|v| v.name().to_string()).collect::<Vec<_>>() })
            }
            Kind::Message(message) => self.reference(message),
        }
    }

    /// Every wanted schema, following the references each adds.
    fn written(mut self) -> Map<String, Value> {
        let mut written = Map::new();
        while let Some(message) = self.messages.pop() {
            let mut properties = Map::new();
            for field in message.fields() {
                properties.insert(field.json_name().to_string(), self.field(&field));
            }
            written.insert(message.full_name().to_string(), json!({ "type": "object", "properties": properties }));
        }
        for name in &self.wanted {
            written.entry(name.clone()).or_insert_with(|| status_schema(name));
        }
        written
    }
}

/// The JSON schema of a well-known type that the mapping writes as a string or any object.
fn well_known(name: &str) -> Option<Value> {
    match name {
        "google.protobuf.Duration" => Some(json!({ "type": "string", "example": "1.500s" })),
        "google.protobuf.Timestamp" => Some(json!({ "type": "string", "format": "date-time" })),
        "google.protobuf.Any" => Some(json!({ "type": "object", "properties": { "@type": { "type": "string" } } })),
        _ => None,
    }
}

/// The schema of `google.rpc.Status`, the error of every route.
fn status_schema(name: &str) -> Value {
    json!({
        "type": "object",
        "description": format!("{name}: the code, a message for people, and the details (ErrorInfo, BadRequest, RetryInfo, QuotaFailure) as objects with their @type."),
        "properties": {
            "code": { "type": "integer", "format": "int32" },
            "message": { "type": "string" },
            "details": { "type": "array", "items": well_known("google.protobuf.Any") },
        },
    })
}
