//! Renderers: each output format writes the reports (`rendering::Rendering`) to a writer
//! (`rendering::Render`); no decisions and no I/O but the writer.

pub(crate) mod text;

pub mod annotations;
pub(crate) mod comment;
pub(crate) mod concise;
pub(crate) mod fixes;
pub(crate) mod full;
pub mod json;
pub mod junit;
pub(crate) mod located;
pub(crate) mod prompt_diff;
pub(crate) mod prompts;
pub(crate) mod rendering;
pub mod rule_reference;
pub mod sarif;
pub(crate) mod schemas;
pub(crate) mod statistics;
pub(crate) mod summary;
