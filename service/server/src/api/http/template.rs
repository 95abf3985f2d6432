//! [`Template`]: an AIP-127 path template (`/v1/{name=games/*}:move`), read from a
//! `google.api.http` annotation, matched against request paths and written as an OpenAPI path.
//!
//! The syntax is googleapis' (`Template = "/" Segments [ ":" Verb ]`, a segment being a literal,
//! `*`, `**` or a `{field=segments}` variable); a variable binds the path segments it covers,
//! joined by `/`, to a request field.

/// One segment of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    /// Exactly this text.
    Literal(String),
    /// Any one segment.
    Any,
    /// Any number of segments, only last.
    Rest,
}

/// A variable: the request field (a dotted path) bound to segments `start..end`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Variable {
    /// The field path, in proto names.
    field: String,
    /// The first segment it covers.
    start: usize,
    /// One past the last segment it covers (for a trailing `**`, the end of the path).
    end: usize,
}

/// A parsed path template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The segments, variables expanded.
    segments: Vec<Segment>,
    /// The variables, in order.
    variables: Vec<Variable>,
    /// The custom verb after the last `:`, if any.
    verb: Option<String>,
}

impl Template {
    /// Reads a template; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Template, String> {
        let path = text.strip_prefix('/').ok_or_else(|| format!("'{text}' does not start with '/'"))?;
        let (path, verb) = split_verb(path);
        let mut template = Template { segments: Vec::new(), variables: Vec::new(), verb: verb.map(str::to_string) };
        let mut rest = path;
        while !rest.is_empty() {
            if let Some(inner) = rest.strip_prefix('{') {
                let close = inner.find('}').ok_or_else(|| format!("'{text}': '{{' without '}}'"))?;
                let (field, pattern) = inner[..close].split_once('=').unwrap_or((&inner[..close], "*"));
                let start = template.segments.len();
                for part in pattern.split('/') {
                    template.segments.push(segment(part, text)?);
                }
                template.variables.push(Variable { field: field.to_string(), start, end: template.segments.len() });
                rest = &inner[close + 1..];
            } else {
                let end = rest.find('/').unwrap_or(rest.len());
                template.segments.push(segment(&rest[..end], text)?);
                rest = &rest[end..];
            }
            rest = match rest.strip_prefix('/') {
                Some(next) if !next.is_empty() => next,
                Some(_) => return Err(format!("'{text}' ends with '/'")),
                None if rest.is_empty() => rest,
                None => return Err(format!("'{text}': a variable must fill whole segments")),
            };
        }
        match template.segments.iter().position(|s| *s == Segment::Rest) {
            Some(at) if at + 1 != template.segments.len() => Err(format!("'{text}': '**' must come last")),
            _ => Ok(template),
        }
    }

    /// The fields a path binds, with their values (percent-decoded), if `path` matches.
    pub fn matches(&self, path: &str) -> Option<Vec<(String, String)>> {
        let path = path.strip_prefix('/')?;
        let (path, verb) = split_verb(path);
        if verb != self.verb.as_deref() {
            return None;
        }
        let parts: Vec<&str> = if path.is_empty() { Vec::new() } else { path.split('/').collect() };
        let ends_open = self.segments.last() == Some(&Segment::Rest);
        let fixed = self.segments.len() - usize::from(ends_open);
        if parts.len() < fixed || (!ends_open && parts.len() != fixed) {
            return None;
        }
        for (segment, part) in self.segments.iter().zip(&parts) {
            match segment {
                Segment::Literal(literal) if literal != part => return None,
                Segment::Any if part.is_empty() => return None,
                _ => {}
            }
        }
        let bindings = self.variables.iter().map(|variable| {
            let end = if ends_open && variable.end == self.segments.len() { parts.len() } else { variable.end };
            let value = parts[variable.start..end].join("/");
            (variable.field.clone(), percent_encoding::percent_decode_str(&value).decode_utf8_lossy().into_owned())
        });
        Some(bindings.collect())
    }

    /// The fields the path binds.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.variables.iter().map(|v| v.field.as_str())
    }

    /// The template as an OpenAPI path, with one parameter per variable: a variable that covers a
    /// resource name (`{name=games/*}`) is written as its literals and one parameter for its
    /// wildcard, named by the field (`/v1/games/{name}`), since OpenAPI parameters cannot hold a
    /// `/`; the gateway rebuilds the name from the path.
    pub fn openapi_path(&self) -> String {
        let mut path = String::new();
        for (at, segment) in self.segments.iter().enumerate() {
            path.push('/');
            let variable = self.variables.iter().find(|v| (v.start..v.end).contains(&at));
            match (segment, variable) {
                (Segment::Literal(literal), _) => path.push_str(literal),
                (_, Some(variable)) => path.push_str(&format!("{{{}}}", variable.field)),
                (Segment::Any, None) => path.push('*'),
                (Segment::Rest, None) => path.push_str("**"),
            }
        }
        if let Some(verb) = &self.verb {
            path.push(':');
            path.push_str(verb);
        }
        path
    }

    /// The literal segments of each variable's resource pattern, for an OpenAPI description
    /// (`name`: `games/*`).
    pub fn variable_patterns(&self) -> impl Iterator<Item = (&str, String)> {
        self.variables.iter().map(|variable| {
            let pattern = self.segments[variable.start..variable.end]
                .iter()
                .map(|segment| match segment {
                    Segment::Literal(literal) => literal.as_str(),
                    Segment::Any => "*",
                    Segment::Rest => "**",
                })
                .collect::<Vec<_>>()
                .join("/");
            (variable.field.as_str(), pattern)
        })
    }
}

/// The path and its custom verb: the text after a `:` in the last segment.
fn split_verb(path: &str) -> (&str, Option<&str>) {
    let last = path.rfind(['/', '}']).map_or(0, |at| at + 1);
    match path[last..].find(':') {
        Some(at) => (&path[..last + at], Some(&path[last + at + 1..])),
        None => (path, None),
    }
}

fn segment(text: &str, template: &str) -> Result<Segment, String> {
    match text {
        "*" => Ok(Segment::Any),
        "**" => Ok(Segment::Rest),
        "" => Err(format!("'{template}' has an empty segment")),
        literal if literal.contains(['{', '}', '=']) => Err(format!("'{template}': bad segment '{literal}'")),
        literal => Ok(Segment::Literal(literal.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::Template;

    fn bound(template: &str, path: &str) -> Option<Vec<(String, String)>> {
        Template::parse(template).unwrap().matches(path)
    }

    #[test]
    fn a_resource_name_binds_its_segments() {
        let name = vec![("name".to_string(), "games/7k2mq9xj4d".to_string())];
        assert_eq!(bound("/v1/{name=games/*}", "/v1/games/7k2mq9xj4d"), Some(name.clone()));
        assert_eq!(bound("/v1/{name=games/*}:move", "/v1/games/7k2mq9xj4d:move"), Some(name.clone()));
        assert_eq!(bound("/v1/{name=games/*}:move", "/v1/games%2F7k2mq9xj4d:move"), None);
        assert_eq!(bound("/v1/{name=games/*}:move", "/v1/games/7k2mq9xj4d:resign"), None);
        assert_eq!(bound("/v1/{name=games/*}:move", "/v1/games/7k2mq9xj4d"), None);
        assert_eq!(bound("/v1/{name=games/*}", "/v1/games/7k2mq9xj4d/moves"), None);
        assert_eq!(bound("/v1/{name=games/*}", "/v1/players/7k2mq9xj4d"), None);
    }

    #[test]
    fn literals_and_verbs_match_exactly() {
        assert_eq!(bound("/v1/games", "/v1/games"), Some(vec![]));
        assert_eq!(bound("/v1/games", "/v1/games:import"), None);
        assert_eq!(bound("/v1/games:import", "/v1/games:import"), Some(vec![]));
        assert_eq!(bound("/v1/games:import", "/v1/games"), None);
        assert_eq!(bound("/v1/{id}", "/v1/a%20b"), Some(vec![("id".to_string(), "a b".to_string())]));
        assert_eq!(bound("/v1/{path=files/**}", "/v1/files/a/b"), Some(vec![("path".into(), "files/a/b".into())]));
    }

    #[test]
    fn openapi_paths_name_the_field() {
        assert_eq!(Template::parse("/v1/{name=games/*}:move").unwrap().openapi_path(), "/v1/games/{name}:move");
        assert_eq!(Template::parse("/v1/positions:start").unwrap().openapi_path(), "/v1/positions:start");
    }

    #[test]
    fn bad_templates_are_refused() {
        for text in ["v1/games", "/v1/{name=games/*", "/v1/", "/v1/**/x", "/v1//x", "/v1/{a}b"] {
            assert!(Template::parse(text).is_err(), "{text}");
        }
    }
}
