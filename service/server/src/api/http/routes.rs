//! [`Routes`]: every HTTP binding of Damiera's RPCs, read from the `google.api.http` annotations
//! in the descriptor set the build wrote (nothing is listed by hand: an annotated RPC is served).

use prost_reflect::{DescriptorPool, DynamicMessage, MethodDescriptor, Value};

use super::template::Template;

/// The package whose services are served over HTTP/JSON.
const PACKAGE: &str = "damiera.v1";

/// Where an HTTP request's body goes in the RPC's request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyField {
    /// No body: the fields the path does not bind come from the query string.
    None,
    /// The body is the whole request (`body: "*"`).
    All,
    /// The body is this top-level field.
    Field(String),
}

/// One HTTP binding of an RPC.
#[derive(Clone, Debug)]
pub struct Route {
    /// The HTTP method.
    pub method: http::Method,
    /// The path template.
    pub template: Template,
    /// Where the body goes.
    pub body: BodyField,
    /// The RPC.
    pub rpc: MethodDescriptor,
}

impl Route {
    /// The gRPC path of the RPC (`/damiera.v1.GameService/MakeMove`).
    pub fn grpc_path(&self) -> String {
        format!("/{}/{}", self.rpc.parent_service().full_name(), self.rpc.name())
    }
}

/// Every binding, in the order of the proto files.
#[derive(Clone, Debug)]
pub struct Routes {
    /// The bindings.
    routes: Vec<Route>,
}

impl Routes {
    /// Reads the bindings of every annotated RPC of `damiera.v1`; an annotation the gateway cannot
    /// serve is an error that names it.
    pub fn read(pool: &DescriptorPool) -> Result<Routes, String> {
        let http = pool
            .get_extension_by_name("google.api.http")
            .ok_or("the descriptor set lacks google/api/annotations.proto")?;
        let mut routes = Vec::new();
        for service in pool.services().filter(|s| s.package_name() == PACKAGE) {
            for rpc in service.methods() {
                let options = rpc.options();
                if !options.has_extension(&http) {
                    continue;
                }
                let rule = options.get_extension(&http);
                let rule = rule.as_message().ok_or("google.api.http is not a message")?;
                routes.push(route(&rpc, rule)?);
                if let Some(Value::List(more)) = rule.get_field_by_name("additional_bindings").as_deref() {
                    for binding in more.iter().filter_map(Value::as_message) {
                        routes.push(route(&rpc, binding)?);
                    }
                }
            }
        }
        Ok(Routes { routes })
    }

    /// The route of `method` and `path`, with the fields its path binds.
    pub fn find(&self, method: &http::Method, path: &str) -> Option<(&Route, Vec<(String, String)>)> {
        self.routes
            .iter()
            .filter(|route| route.method == method)
            .find_map(|route| route.template.matches(path).map(|bound| (route, bound)))
    }

    /// Every route.
    pub fn iter(&self) -> impl Iterator<Item = &Route> {
        self.routes.iter()
    }
}

/// One binding of `rpc` from an `HttpRule`.
fn route(rpc: &MethodDescriptor, rule: &DynamicMessage) -> Result<Route, String> {
    let text = |name: &str| match rule.get_field_by_name(name).as_deref() {
        Some(Value::String(value)) if rule.has_field_by_name(name) => Some(value.clone()),
        _ => None,
    };
    let (method, path) = [
        (http::Method::GET, "get"),
        (http::Method::PUT, "put"),
        (http::Method::POST, "post"),
        (http::Method::DELETE, "delete"),
        (http::Method::PATCH, "patch"),
    ]
    .into_iter()
    .find_map(|(method, name)| text(name).map(|path| (method, path)))
    .ok_or_else(|| format!("{}: google.api.http names no method the gateway serves", rpc.full_name()))?;
    let template = Template::parse(&path).map_err(|e| format!("{}: {e}", rpc.full_name()))?;
    let body = match text("body").as_deref() {
        None | Some("") => BodyField::None,
        Some("*") => BodyField::All,
        Some(field) if rpc.input().get_field_by_name(field).is_some() => BodyField::Field(field.to_string()),
        Some(field) => return Err(format!("{}: the body names no field '{field}'", rpc.full_name())),
    };
    for field in template.fields() {
        if rpc.input().get_field_by_name(field).is_none() {
            return Err(format!("{}: the path names no field '{field}'", rpc.full_name()));
        }
    }
    Ok(Route { method, template, body, rpc: rpc.clone() })
}
