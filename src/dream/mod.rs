//! The dreaming pass engine: one pass of a pack over one window of sessions (SPEC 5).
pub mod stub;
pub mod time;
pub mod transcript;
