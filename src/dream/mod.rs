//! The dreaming pass engine (built by the fixture work).
pub mod stub;
