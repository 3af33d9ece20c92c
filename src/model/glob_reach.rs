//! Which ways out of the workspace a `note_paths` glob names, judged on the glob as its matcher
//! parses it: the glob's own regular expression (globset's, the one the dreaming pass matches
//! with), run as a lazy DFA, so every spelling the glob syntax allows is seen the same
//! (`[.][.]/`, `{..,a}/`, `\.\./`, `{/etc,a}`, `[/]etc`), where a look at the pattern's text
//! would miss them. Both readings of a class are judged: the matcher's, where no class holds
//! `/`, and one where a class may.
//!
//! A glob names a `..` component when it matches some path with one but not the same path with
//! each `..` component replaced by a name of two ordinary characters: a wildcard (`*`, `?`,
//! `**`) matches `..` and the name alike, so `**/*.md` names none, while `[.][.]` matches only
//! the dots. It names an absolute path when it matches some `/p` but not `q/p`, the same path
//! with a name before its first slash: a leading `**/` or `*/` matches both, `{/etc,a}` only
//! the first.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::{LazyLock, Mutex};

use regex_automata::Anchored;
use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::{start, syntax};

/// A way out of the workspace that a glob names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    Absolute,
    Parent,
    /// The glob is too large for the look to finish (a hostile one): it is not accepted.
    TooComplex,
}

/// The most configurations a look visits; a glob of 200 bytes needs far fewer.
const BUDGET: usize = 100_000;

/// The name a `..` component is replaced by: two characters no glob may write (a control
/// character in a pass file is an error of its own), which only a wildcard matches.
const NAME: &[u8] = b"\x01\x01";

/// The first way out of the workspace that a `note_paths` pattern names, if any, in either
/// reading of its classes: the matcher's (`*`, `?` and a class never match `/`, so `[/]`
/// matches nothing) and a matcher's that lets a class hold `/` (so `[/]etc` is `/etc`), since
/// the pattern is hippo's to match, not only this gate's. A pattern that is no glob names none
/// (its syntax is its own error).
///
/// A registry's passes repeat their patterns (`**/*.md` in most), and a look costs a regex
/// compiled and walked: each distinct pattern's answer is kept for the run ([`REMEMBERED`] of
/// them at most, so the memory stays flat over any registry).
pub(crate) fn reach(pattern: &str) -> Option<Reach> {
    static SEEN: LazyLock<Mutex<HashMap<String, Option<Reach>>>> = LazyLock::new(Mutex::default);
    if let Some(known) = SEEN.lock().ok().and_then(|m| m.get(pattern).copied()) {
        return known;
    }
    let found = look(pattern);
    if let Ok(mut m) = SEEN.lock()
        && m.len() < REMEMBERED
    {
        m.insert(pattern.to_string(), found);
    }
    found
}

/// How many patterns' answers [`reach`] keeps.
const REMEMBERED: usize = 4096;

/// [`reach`] without the memory: both readings looked at.
fn look(pattern: &str) -> Option<Reach> {
    [true, false].into_iter().find_map(|separator| {
        let glob = globset::GlobBuilder::new(pattern)
            .literal_separator(separator)
            .backslash_escape(true)
            .build()
            .ok()?;
        reach_regex(glob.regex())
    })
}

/// [`reach`] of one reading: the glob's regular expression (`globset::Glob::regex`).
fn reach_regex(glob_regex: &str) -> Option<Reach> {
    let Ok(mut g) = Glob::new(glob_regex) else {
        return Some(Reach::TooComplex);
    };
    match (g.absolute(), g.parent()) {
        (Ok(true), _) => Some(Reach::Absolute),
        (Ok(false), Ok(false)) => None,
        (Ok(false), Ok(true)) => Some(Reach::Parent),
        _ => Some(Reach::TooComplex),
    }
}

/// A lazy DFA of the glob's expression, its cache, and one byte of each class that matters.
struct Glob {
    dfa: DFA,
    cache: Cache,
    bytes: Vec<u8>,
}

/// Where a component of the path walked stands: at its start, after one dot, after two, or
/// past them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Component {
    Start,
    Dot,
    Dots,
    Other,
}

impl Glob {
    fn new(pattern: &str) -> Result<Glob, ()> {
        // As globset compiles its globs: bytes, not UTF-8; `.` matches a line feed.
        let syntax = syntax::Config::new().utf8(false).dot_matches_new_line(true);
        let config = DFA::config()
            .cache_capacity(4 << 20)
            .minimum_cache_clear_count(Some(0));
        let dfa = DFA::builder()
            .syntax(syntax)
            .configure(config)
            .build(pattern)
            .map_err(|_| ())?;
        let cache = dfa.create_cache();
        // One byte per (class, is `.`, is `/`): a flag per such triple, not a hashed set.
        let classes = dfa.byte_classes();
        let mut seen = [false; 256 * 4];
        let bytes = (0..=255u8)
            .filter(|&x| {
                let key = usize::from(classes.get(x)) * 4
                    + usize::from(x == b'.') * 2
                    + usize::from(x == b'/');
                !std::mem::replace(&mut seen[key], true)
            })
            .collect();
        Ok(Glob { dfa, cache, bytes })
    }

    fn start(&mut self) -> Result<LazyStateID, ()> {
        let config = start::Config::new().anchored(Anchored::Yes);
        self.dfa
            .start_state(&mut self.cache, &config)
            .map_err(|_| ())
    }

    fn feed(&mut self, mut sid: LazyStateID, bytes: &[u8]) -> Result<LazyStateID, ()> {
        for &b in bytes {
            sid = self
                .dfa
                .next_state(&mut self.cache, sid, b)
                .map_err(|_| ())?;
        }
        Ok(sid)
    }

    fn matches(&mut self, sid: LazyStateID) -> Result<bool, ()> {
        let end = self
            .dfa
            .next_eoi_state(&mut self.cache, sid)
            .map_err(|_| ())?;
        Ok(end.is_match())
    }

    /// Whether some `/p` is matched and the same path with a name before its first slash
    /// (`q/p`, [`NAME`]) is not.
    fn absolute(&mut self) -> Result<bool, ()> {
        let start = self.start()?;
        let named = self.feed(start, NAME)?;
        let first = (self.feed(start, b"/")?, self.feed(named, b"/")?);
        self.walk(
            first,
            |g, (with, without), b| Ok((g.feed(with, &[b])?, g.feed(without, &[b])?)),
            |g, (with, without)| Ok(g.matches(with)? && !g.matches(without)?),
        )
    }

    /// Whether some path with a `..` component is matched and the same path with each one
    /// replaced by [`NAME`] is not. The second reading lags behind while a component may
    /// still turn out to be `..`.
    fn parent(&mut self) -> Result<bool, ()> {
        let start = self.start()?;
        let first = (start, start, Component::Start, false);
        self.walk(
            first,
            |g, (path, named, at, replaced), b| {
                let path = g.feed(path, &[b])?;
                let slash = b == b'/';
                let next = if slash {
                    Component::Start
                } else {
                    Component::Other
                };
                Ok(match (at, b) {
                    (Component::Start, b'.') => (path, named, Component::Dot, replaced),
                    (Component::Dot, b'.') => (path, named, Component::Dots, replaced),
                    (Component::Dot, _) => (path, g.feed(named, &[b'.', b])?, next, replaced),
                    (Component::Dots, b'/') => {
                        let named = g.feed(named, NAME)?;
                        let named = g.feed(named, b"/")?;
                        (path, named, Component::Start, true)
                    }
                    (Component::Dots, _) => {
                        (path, g.feed(named, &[b'.', b'.', b])?, next, replaced)
                    }
                    _ => (path, g.feed(named, &[b])?, next, replaced),
                })
            },
            |g, (path, named, at, replaced)| {
                let (named, replaced) = match at {
                    Component::Dot => (g.feed(named, b".")?, replaced),
                    Component::Dots => (g.feed(named, NAME)?, true),
                    _ => (named, replaced),
                };
                Ok(replaced && g.matches(path)? && !g.matches(named)?)
            },
        )
    }

    /// A breadth-first walk of configurations, one byte of each class at a time, until one
    /// ends as `found` wants.
    fn walk<C: Copy + Eq + Hash>(
        &mut self,
        first: C,
        step: impl Fn(&mut Glob, C, u8) -> Result<C, ()>,
        found: impl Fn(&mut Glob, C) -> Result<bool, ()>,
    ) -> Result<bool, ()> {
        let mut seen: HashSet<C> = HashSet::from([first]);
        let mut queue = VecDeque::from([first]);
        let bytes = self.bytes.clone();
        while let Some(c) = queue.pop_front() {
            if found(self, c)? {
                return Ok(true);
            }
            for &b in &bytes {
                let next = step(self, c, b)?;
                if seen.insert(next) {
                    if seen.len() > BUDGET {
                        return Err(());
                    }
                    queue.push_back(next);
                }
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(pattern: &str) -> Option<Reach> {
        assert!(crate::model::pass::one_glob(pattern).is_ok(), "{pattern}");
        reach(pattern)
    }

    #[test]
    fn every_spelling_of_a_way_out_is_seen() {
        for p in [
            "[.][.]/x/*.md",
            "{..,a}/x.md",
            "\\.\\./x.md",
            "a/../b.md",
            "**/..",
            "..",
            "a/[.]./x.md",
            "notes/{..,x}",
        ] {
            assert_eq!(of(p), Some(Reach::Parent), "{p}");
        }
        for p in ["{/etc,a}/x.md", "[/]etc/x.md", "/etc/*.md", "{a,/b}"] {
            assert_eq!(of(p), Some(Reach::Absolute), "{p}");
        }
    }

    #[test]
    fn globs_inside_the_workspace_are_fine() {
        for p in [
            "**/Decision log*.md",
            "notes/*.md",
            "notes/[.]hidden.md",
            "{a,b}/x.md",
            "notes/...md",
            "**/*.md",
            "a/?/b.md",
            "**",
            "*/*.md",
            "notes/.x/*.md",
            "notes/*a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t*u*v*w*x*y*z*.md",
        ] {
            assert_eq!(of(p), None, "{p}");
        }
    }
}
