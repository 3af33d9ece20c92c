//! Renderers: pure functions of the reports, no decisions and no I/O but the writer.

pub mod text;

pub mod concise;
pub mod fixes;
pub mod full;
pub mod github;
pub mod json;
pub mod junit;
pub mod located;
pub mod prompts;
pub mod rules;
pub mod sarif;
pub mod summary;
