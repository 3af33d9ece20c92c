//! Prompts (filled in by the pass-rules work).
use super::Rule;
use super::pass::PassDef;
use crate::diagnostic::Diagnostic;
use crate::pack::Pack;

pub static RULES: &[&Rule] = &[];

pub fn check(_pack: &Pack, _passes: &[PassDef], _out: &mut Vec<Diagnostic>) {}
