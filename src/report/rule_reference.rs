//! `hippo-packs rules [RULE]` and docs/rules.md: both read the catalogue, nothing else.

use crate::core::escape;
use crate::rules::{self, Rule};

use super::sarif::{help_uri, markdown_text};

mod examples;

/// The catalogue (`<id>  <severity>  <summary>`, one rule a line, in catalogue order), or one
/// rule explained; `Err` is an unknown rule's message for standard error. Ids match in any
/// case.
pub fn render(rule: Option<&str>) -> Result<String, String> {
    match rule {
        None => Ok(catalogue()),
        Some(id) => find(id).map(explain),
    }
}

/// [`render`] as JSON: a list of every rule, or the one rule, each with its id, severity,
/// family, precision, security severity, summary, description, help, what `check --fix` does
/// (`fix`, or null) and its reference URL.
pub fn render_json(rule: Option<&str>) -> Result<String, String> {
    let text = match rule {
        None => {
            let all: Vec<RuleJson> = rules::catalogue().iter().map(|r| json(r)).collect();
            serde_json::to_string_pretty(&all)
        }
        Some(id) => serde_json::to_string_pretty(&json(find(id)?)),
    };
    let mut out = text.unwrap_or_default();
    out.push('\n');
    Ok(out)
}

/// One rule as `rules --format json` gives it.
#[derive(serde::Serialize)]
struct RuleJson {
    id: &'static str,
    severity: &'static str,
    family: &'static str,
    precision: &'static str,
    security_severity: Option<&'static str>,
    summary: &'static str,
    description: &'static str,
    help: &'static str,
    fix: Option<&'static str>,
    reference: String,
}

fn json(r: &'static Rule) -> RuleJson {
    RuleJson {
        id: r.id,
        severity: r.severity_text(),
        family: r.family(),
        precision: r.precision.as_str(),
        security_severity: r.security_severity,
        summary: r.summary(),
        description: r.description(),
        help: r.help(),
        fix: crate::fix::fixes_of(r.id),
        reference: help_uri(r),
    }
}

/// The rule `id` names, in any case, or the message saying it names none.
fn find(id: &str) -> Result<&'static Rule, String> {
    {
        // Ids are lowercase: `SHELL-TEXT` names the same rule.
        rules::find(&id.to_ascii_lowercase()).ok_or_else(|| {
            let ids: Vec<&str> = rules::catalogue().iter().map(|r| r.id).collect();
            let near = match crate::core::suggest::nearest(id, &ids) {
                Some(n) => format!("; did you mean `{n}`?"),
                None => String::new(),
            };
            format!(
                "error no rule named {}{near}; `hippo-packs rules` lists them\n",
                escape::line(id)
            )
        })
    }
}

fn catalogue() -> String {
    let all = rules::catalogue();
    let width = all.iter().map(|r| r.id.len()).max().unwrap_or(0);
    all.iter()
        .map(|r| {
            format!(
                "{:width$}  {:7}  {}\n",
                r.id,
                r.severity_short(),
                r.summary()
            )
        })
        .collect()
}

/// One rule: what it checks, why, how to fix, whether `check --fix` does, an example that
/// fires it and a near miss that does not (from its fixtures); the repository's paths last,
/// under `For contributors`.
pub(crate) fn explain(r: &Rule) -> String {
    let mut out = format!(
        "{}: {}\n\nseverity: {}\nfamily: {}\nprecision: {}\n",
        r.id,
        r.summary(),
        r.severity_text(),
        r.family(),
        r.precision.as_str()
    );
    if let Some(s) = r.security_severity {
        out.push_str(&format!("security severity: {s}\n"));
    }
    out.push_str(&match crate::fix::fixes_of(r.id) {
        Some(what) => format!("fixable: yes, `check --fix` {what}\n"),
        None => "fixable: no\n".to_string(),
    });
    out.push_str(&format!(
        "\nWhat it checks and why:\n{}\n\nHow to fix:\n{}\n\n",
        r.description(),
        r.help(),
    ));
    if let Some(appendix) = r.appendix() {
        out.push_str(&appendix);
        out.push('\n');
    }
    for e in examples::of(r.id) {
        let title = match e.variant.starts_with("bad") {
            true => "Example: a pack that gets it (the page's good pack, changed)",
            false => "Near miss: a pack that does not (the page's good pack, changed)",
        };
        out.push_str(title);
        out.push_str(":\n");
        for line in e.text.lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str(&format!("Reference: {}\n\n", help_uri(r)));
    out.push_str("For contributors (paths in the hippo-packs repository):\n");
    for (label, path) in hops(r) {
        out.push_str(&format!("{label}: {path}\n"));
    }
    out
}

/// Where a newcomer goes from a rule id, each path relative to the repository: the source file
/// that declares the rule and reports it, its section of docs/rules.md, its fixture folder
/// (docs/architecture.md, "From a rule id to its code").
pub fn hops(r: &Rule) -> [(&'static str, String); 3] {
    [
        ("code", r.reporting_file().to_string()),
        ("docs", format!("docs/rules.md#{}", r.id)),
        ("fixtures", r.cases()),
    ]
}

/// docs/rules.md, generated from the catalogue.
pub fn markdown() -> String {
    let all = rules::catalogue();
    let mut out = String::from(
        "# Rule reference\n\n\
         <!-- Generated from the rule catalogue (src/rules/); do not edit. When it is stale,\n     \
         `cargo test --lib report::rule_reference` fails and writes the new text to docs/rules.md.new. -->\n\n\
         Every finding of `hippo-packs check` and `hippo-packs test` carries one of these rule ids,\n\
         in the text output's order. `hippo-packs rules` prints this list and\n\
         `hippo-packs rules <RULE>` explains one rule; SARIF carries the same texts.\n\n\
         Each rule is declared once, in `src/rules/<family>.rs`, by `declare_rules!`: its doc\n\
         comment is the text below, its family the module's name. From a rule id, one hop leads\n\
         to its code, its section here (`docs/rules.md#<id>`) and its fixture folder\n\
         (`tests/fixtures/<id>/`): `hippo-packs rules <id>` prints all three, and each section\n\
         below links them.\n\n\
         | Rule | Severity | Family | Summary |\n\
         | --- | --- | --- | --- |\n",
    );
    for r in all {
        out.push_str(&format!(
            "| [`{id}`](#{id}) | {} | {} | {} |\n",
            r.severity.as_str(),
            r.family(),
            markdown_text(r.summary()),
            id = r.id
        ));
    }
    for r in all {
        out.push_str(&format!("\n## {}\n\n", r.id));
        out.push_str(&format!(
            "Severity: **{}**. Family: {}. Precision: {}.",
            r.severity.as_str(),
            r.family(),
            r.precision.as_str()
        ));
        if let Some(s) = r.security_severity {
            out.push_str(&format!(" Security severity: {s}."));
        }
        out.push_str(&format!(
            "\n\n{}\n\n**What it checks.** {}\n\n**How to fix.** {}\n\n\
             Code: [`{code}`](../{code}). Fixtures: [`{cases}`](../{cases}).\n",
            markdown_text(r.summary()),
            markdown_text(r.description()),
            markdown_text(r.help()),
            code = r.reporting_file(),
            cases = r.cases(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_lists_every_rule_once() {
        let text = render(None).unwrap();
        assert_eq!(text.lines().count(), rules::catalogue().len());
        for r in rules::catalogue() {
            assert_eq!(
                text.lines()
                    .filter(|l| l.split_whitespace().next() == Some(r.id))
                    .count(),
                1,
                "{}",
                r.id
            );
        }
    }

    #[test]
    fn one_rule_is_explained_and_an_unknown_one_is_an_error() {
        let r = rules::catalogue()[0];
        let text = render(Some(r.id)).unwrap();
        assert!(text.starts_with(&format!("{}: {}", r.id, r.summary())));
        assert!(text.contains(r.description()) && text.contains(r.help()));
        let err = render(Some("no-such-rule\u{1b}")).unwrap_err();
        assert_eq!(
            err,
            "error no rule named no-such-ruleU+001B; `hippo-packs rules` lists them\n"
        );
    }

    #[test]
    fn the_redaction_rule_lists_its_kinds() {
        let text = render(Some("redaction")).unwrap();
        assert!(text.contains("Kinds (the name in parentheses"), "{text}");
        assert!(text.contains("  npm-access-token "), "{text}");
        let kinds = text.find("Kinds (").unwrap();
        let reference = text.find("Reference: ").unwrap();
        assert!(kinds < reference, "the kinds come before the reference");
        // control: another rule lists no kinds
        let other = render(Some("invisible-character")).unwrap();
        assert!(!other.contains("Kinds ("));
    }

    /// docs/rules.md is this generator's text: a stale file fails, with the new text beside it
    /// as docs/rules.md.new (the control of the comparison is in `core::reviewed`).
    #[test]
    fn docs_rules_md_is_current() {
        if let Err(stale) = crate::core::reviewed::compare("docs/rules.md", &markdown()) {
            panic!("{stale}");
        }
    }

    #[test]
    fn markdown_has_a_section_per_rule() {
        let md = markdown();
        for r in rules::catalogue() {
            assert!(md.contains(&format!("\n## {}\n", r.id)), "{}", r.id);
        }
    }
}
