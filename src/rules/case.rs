//! Fixture cases: tests/<case>/case.toml (filled in by the fixture work).
use super::Rule;
use super::pass::PassDef;
use crate::diagnostic::Diagnostic;
use crate::pack::Pack;

pub static RULES: &[&Rule] = &[];

#[derive(Debug, Clone, Default)]
pub struct CaseDef {
    pub name: String,
}

pub fn check(_pack: &Pack, _passes: &[PassDef], _out: &mut Vec<Diagnostic>) -> Vec<CaseDef> {
    Vec::new()
}
