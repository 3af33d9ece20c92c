//! The driver's rules: each rule of the catalogue as a SARIF `reportingDescriptor`, within
//! GitHub's limits (docs/output-formats.md).

use serde::Serialize;

use super::strings::{Text, limit, markdown_text, pascal_case};
use crate::core::Severity;
use crate::rules::Rule;

/// Where the tool and its rule reference live: the repository address of Cargo.toml.
pub(super) const HOME: &str = env!("CARGO_PKG_REPOSITORY");
/// GitHub's limit for a rule's descriptions, in characters.
pub(super) const MAX_DESCRIPTION: usize = 1_024;
/// GitHub's limits for a rule's name, in characters, and for its tags.
const MAX_NAME: usize = 255;
const MAX_TAGS: usize = 20;

/// The rule as the driver lists it.
pub(super) fn descriptor(r: &'static Rule) -> Descriptor {
    let help_uri = help_uri(r);
    let mut tags = vec![r.family()];
    if r.security_severity.is_some() {
        tags.push("security");
    }
    tags.truncate(MAX_TAGS);
    Descriptor {
        id: r.id,
        name: display_name(r.id),
        short_description: Text {
            text: limit(r.summary(), MAX_DESCRIPTION),
        },
        full_description: Text {
            text: limit(r.description(), MAX_DESCRIPTION),
        },
        help: Help {
            text: format!("{}\n\nHow to fix: {}", r.description(), r.help()),
            markdown: format!(
                "{}\n\n**How to fix.** {}\n\n[The rule in the reference]({})",
                markdown_text(r.description()),
                markdown_text(r.help()),
                help_uri
            ),
        },
        help_uri,
        default_configuration: Configuration {
            level: level(r.severity),
        },
        properties: RuleProperties {
            tags,
            precision: r.precision.as_str(),
            security_severity: r.security_severity,
        },
    }
}

/// The rule's section of docs/rules.md.
pub(crate) fn help_uri(r: &Rule) -> String {
    format!("{HOME}/blob/main/docs/rules.md#{}", r.id)
}

/// The rule's `name`: the id in PascalCase, left out when that equals the id but for case
/// (`unreadable`), as SARIF 3.49.7 asks.
pub(super) fn display_name(id: &str) -> Option<String> {
    let name = pascal_case(id);
    (!name.eq_ignore_ascii_case(id)).then(|| limit(&name, MAX_NAME))
}

/// A SARIF level of a severity.
pub(super) fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Descriptor {
    id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    short_description: Text,
    full_description: Text,
    help: Help,
    help_uri: String,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    precision: &'static str,
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    security_severity: Option<&'static str>,
}
