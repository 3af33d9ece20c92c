//! Transcripts (filled in by the fixture work).
use super::Rule;
use super::case::CaseDef;
use crate::diagnostic::Diagnostic;
use crate::pack::Pack;

pub static RULES: &[&Rule] = &[];

pub fn check(_pack: &Pack, _cases: &[CaseDef], _out: &mut Vec<Diagnostic>) {}
