//! Workflow commands (`::group::`, `::notice::`, ...) and the plain lines that stand for them
//! outside GitHub Actions. Every message goes through [`Log::clean`]: the token is masked and
//! nothing can break a line or start one with `::`.

use crate::report::annotations::{data as escape_data, property as escape_property};

/// How `ci` writes its own lines: workflow commands on GitHub Actions, plain lines elsewhere.
#[derive(Debug, Clone, Default)]
pub(crate) struct Log {
    /// On GitHub Actions.
    pub(crate) actions: bool,
    /// The token, replaced by `***` wherever it would appear.
    secret: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Notice,
    Warning,
    Error,
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::Notice => "notice",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

impl Log {
    pub(crate) fn new(actions: bool, secret: Option<&str>) -> Self {
        Log {
            actions,
            secret: secret.filter(|s| !s.is_empty()).map(str::to_string),
        }
    }

    /// The token masked, control and invisible characters shown as `U+XXXX` (one line).
    pub(crate) fn clean(&self, s: &str) -> String {
        let masked = match &self.secret {
            Some(t) => s.replace(t.as_str(), "***"),
            None => s.to_string(),
        };
        crate::core::escape::line(&masked).into_owned()
    }

    /// A line of `ci`'s own, which never starts with `::`.
    pub(crate) fn line(&self, s: &str) -> String {
        let s = self.clean(s);
        if s.starts_with("::") {
            format!(" {s}\n")
        } else {
            format!("{s}\n")
        }
    }

    /// `::group::<title>`, or a plain heading.
    pub(crate) fn group(&self, title: &str) -> String {
        if self.actions {
            format!("::group::{}\n", escape_data(&self.clean(title)))
        } else {
            format!("== {} ==\n", self.clean(title))
        }
    }

    pub(crate) fn endgroup(&self) -> String {
        if self.actions {
            "::endgroup::\n".to_string()
        } else {
            String::new()
        }
    }

    /// `::notice title=hippo-packs (<topic>)::<message>` (or warning, error), or
    /// `hippo-packs: <level>: <message>` off GitHub.
    pub(crate) fn annotate(&self, level: Level, topic: &str, message: &str) -> String {
        let message = self.clean(message);
        if self.actions {
            format!(
                "::{} title={}::{}\n",
                level.as_str(),
                escape_property(&format!("hippo-packs ({topic})")),
                escape_data(&message)
            )
        } else {
            format!("hippo-packs: {}: {message}\n", level.as_str())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_the_toolkit() {
        assert_eq!(escape_data("50%\r\nx"), "50%25%0D%0Ax");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }

    #[test]
    fn masks_the_token_and_never_starts_a_command() {
        let log = Log::new(true, Some("ghs_secret"));
        let n = log.annotate(Level::Notice, "upload", "bad ghs_secret\n::error::x");
        assert!(!n.contains("ghs_secret"), "{n}");
        assert_eq!(n.lines().count(), 1, "{n}");
        assert!(n.starts_with("::notice title=hippo-packs (upload)::"));
        // The runner trims leading white space before it looks for `::`: a space is not enough.
        assert_eq!(log.line("::warning::pwn"), "U+003A:warning::pwn\n");
        assert_eq!(log.line("x ##[error]pwn"), "x U+0023#[error]pwn\n");
        assert_eq!(log.group("a\nb"), "::group::aU+000Ab\n");
        let plain = Log::new(false, None);
        assert_eq!(plain.group("p"), "== p ==\n");
        assert_eq!(plain.endgroup(), "");
        assert_eq!(
            plain.annotate(Level::Error, "upload", "no"),
            "hippo-packs: error: no\n"
        );
    }
}
